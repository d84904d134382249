/**
 * A scrolling pane that follows its newest content, as Slack's channel and
 * thread views do: while the person is at the bottom, a redraw keeps them
 * there; once they scroll up, a redraw leaves them where they were. Whether
 * they are following is decided by their scrolling (the scroll event), not
 * measured at redraw time, so content that grew since (a longer tail, a late
 * image) does not make the pane let go.
 *
 * A message that arrives below while the person reads further up (the
 * answer to a click on an older message) shows a "New messages below" button
 * after the pane, as Slack does, instead of landing out of sight unannounced.
 */
const NEAR_BOTTOM_PX = 40;

export class Follow {
  private following = true;
  /** Where the last redraw left the pane; anything else means the person scrolled since. */
  private leftAt = 0;
  /**
   * The newest message (its key) when a redraw showed it from its top because it is taller than
   * the pane: later redraws keep its top in view until the person scrolls or a newer one comes.
   * Without this, a redraw for a change elsewhere would scroll to the bottom and hide its start.
   */
  private pinned: string | undefined;

  /** The "New messages below" button, made on first need and placed right after the pane. */
  private pill: HTMLButtonElement | undefined;

  constructor(private readonly pane: HTMLElement) {
    pane.addEventListener('scroll', () => {
      // A redraw's own scroll (its event comes a frame later) says nothing of where the person is.
      if (this.pane.scrollTop === this.leftAt) return;
      this.pinned = undefined;
      this.following = this.atBottom();
      if (this.following) this.showPill(false);
    });
  }

  /**
   * Runs `draw` (which replaces the pane's content), then keeps the bottom or
   * the person's place. A new newest message taller than the pane is shown
   * from its top, so a long answer is read from its start, not its last lines.
   */
  redraw(draw: () => void): void {
    const top = this.pane.scrollTop;
    // A scroll whose event has not been dispatched yet still counts.
    if (top !== this.leftAt) {
      this.following = this.atBottom();
      this.pinned = undefined;
    }
    const newestBefore = this.newestKey();
    draw();
    const newest = this.pane.lastElementChild;
    const key = this.newestKey();
    const arrived = newest instanceof HTMLElement && key !== newestBefore;
    this.pane.scrollTop = this.following ? this.pane.scrollHeight : top;
    if (this.following && newest instanceof HTMLElement && (arrived || key === this.pinned)) {
      // At the bottom, a newest message that does not fit (padding and margins
      // included) would start above the pane: bring its first line into view.
      const hidden = this.pane.getBoundingClientRect().top - newest.getBoundingClientRect().top;
      // Rounded up: scrollTop moves in whole pixels, and a pane may start at a fraction of one.
      if (hidden > 0) this.pane.scrollTop -= Math.ceil(hidden);
      this.pinned = hidden > 0 ? key : undefined;
    }
    if (arrived && !this.following) this.showPill(true);
    this.leftAt = this.pane.scrollTop;
  }

  private showPill(show: boolean): void {
    if (!show) {
      if (this.pill) this.pill.hidden = true;
      return;
    }
    if (!this.pill) {
      const pill = document.createElement('button');
      pill.type = 'button';
      pill.className = 'new-below';
      pill.textContent = 'New messages below ↓';
      pill.addEventListener('click', () => this.toNewest());
      this.pane.after(pill);
      this.pill = pill;
    }
    this.pill.hidden = false;
  }

  /**
   * Which message is the newest, to tell a new one from a redraw of the same: its Slack ts, plus
   * how often a response URL replaced it whole. "Working on it…" replaced by a tall answer keeps
   * its ts, yet the answer is new and is read from its top; a live tail's edits are not.
   */
  private newestKey(): string | undefined {
    return this.pane.lastElementChild?.getAttribute('data-arrival') ?? undefined;
  }

  /** Goes to the newest content and follows it again (a message sent, a thread opened). */
  toNewest(): void {
    this.following = true;
    this.pinned = undefined;
    this.pane.scrollTop = this.pane.scrollHeight;
    this.leftAt = this.pane.scrollTop;
    this.showPill(false);
  }

  private atBottom(): boolean {
    return this.pane.scrollHeight - this.pane.scrollTop - this.pane.clientHeight < NEAR_BOTTOM_PX;
  }
}
