/**
 * A scrolling pane that follows its newest content, as Slack's channel and
 * thread views do: while the person is at the bottom, a redraw keeps them
 * there; once they scroll up, a redraw leaves them where they were. Whether
 * they are following is decided by their scrolling (the scroll event), not
 * measured at redraw time, so content that grew since (a longer tail, a late
 * image) does not make the pane let go.
 */
const NEAR_BOTTOM_PX = 40;

export class Follow {
  private following = true;
  /** Where the last redraw left the pane; anything else means the person scrolled since. */
  private leftAt = 0;

  constructor(private readonly pane: HTMLElement) {
    pane.addEventListener('scroll', () => {
      this.following = this.atBottom();
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
    if (top !== this.leftAt) this.following = this.atBottom();
    const newestBefore = this.newestKey();
    draw();
    const newest = this.pane.lastElementChild;
    const arrived = newest instanceof HTMLElement && this.newestKey() !== newestBefore;
    if (this.following && arrived && newest.offsetHeight > this.pane.clientHeight) {
      this.pane.scrollTop += newest.getBoundingClientRect().top - this.pane.getBoundingClientRect().top;
    } else {
      this.pane.scrollTop = this.following ? this.pane.scrollHeight : top;
    }
    this.leftAt = this.pane.scrollTop;
  }

  /** Which message is the newest (its Slack ts), to tell a new one from a redraw of the same. */
  private newestKey(): string | undefined {
    return this.pane.lastElementChild?.getAttribute('data-ts') ?? undefined;
  }

  /** Goes to the newest content and follows it again (a message sent, a thread opened). */
  toNewest(): void {
    this.following = true;
    this.pane.scrollTop = this.pane.scrollHeight;
    this.leftAt = this.pane.scrollTop;
  }

  private atBottom(): boolean {
    return this.pane.scrollHeight - this.pane.scrollTop - this.pane.clientHeight < NEAR_BOTTOM_PX;
  }
}
