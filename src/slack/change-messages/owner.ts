/**
 * The one owner of a change's Slack message: it posts the message, rewrites
 * it as the change moves, posts the thread replies (outcome notices, the
 * ask for approval, reminders, follow-up steps) and marks the ask answered.
 * Nothing else in the bot posts or edits these (test/architecture/
 * change-message-owner.test.ts). It learns what moved from the engine's
 * events (changes/events.ts: this replica's, and through the outbox what a
 * replica without Slack did), as release threads learn from theirs; the
 * click handlers only ask the engine and answer the person. Its drawing
 * state (where a message is, the ask, what a message shows) is its own
 * table's (`slack_change_messages`); it never writes a change.
 */
import { type Change, type ClickOutcome, FINAL_STATUSES, toChange } from '../../changes/change.js';
import type { ClaimedNotices } from '../../changes/change-notices.js';
import type { ChangeEvent, ChangeEvents } from '../../changes/events.js';
import { markAskAnswered } from './ask-reply.js';
import type { ChangeMessageDeps } from './deps.js';
import { postChangeMessage, redrawQueued, redrawTried, rewriteChangeMessage } from './draw.js';
import { postFollowResumed, postFollowStep } from './follow-ups.js';
import { notifyApprovers, notifyGuard, notifyOutcome, sendClaimedNotices } from './notify.js';
import { messageOf, rememberPlace } from './thread.js';

/** How long the click that settled a change may take to draw it before a late click repairs the message. */
const REPAIR_AFTER_MS = 10_000;

/** How many finished changes whose message does not show it one housekeeping pass redraws. */
const REPAIR_LIMIT = 50;

export class ChangeMessages {
  /** Thread replies per change, in the order their events came (a step never before the outcome it follows). */
  private readonly threads = new Map<string, Promise<void>>();
  /** What each change's latest click set off here (its redraw, ask and notice): a click is answered after it. */
  private readonly clicks = new Map<string, Promise<void>>();

  constructor(private readonly d: ChangeMessageDeps) {}

  /** Redraws on the engine's events until the returned function is called. */
  listen(events: ChangeEvents): () => void {
    return events.on((event) => this.on(event));
  }

  /**
   * Posts a requested change's message (and records where it is, in Slack's
   * table), tells its release (whose message links to it now), then asks the
   * approvers the policy names in its thread. Returns the message's ts.
   * Throws when Slack refuses the message itself (nobody could confirm the
   * change then).
   */
  async post(change: Change): Promise<string> {
    const ts = await postChangeMessage(this.d, change);
    if (change.origin.releaseId) await this.d.releaseEvents.emit({ releaseId: change.origin.releaseId });
    await notifyApprovers(this.d, change);
    return ts;
  }

  /**
   * Resolves once what the latest click on `changeId` set off here has been
   * tried (its message redrawn, the ask marked, the requester told): the
   * click handler answers after it, as the person's view should show the
   * outcome first. The engine never waits for this; only Slack's own handler does.
   */
  clickDrawn(changeId: string): Promise<void> {
    return this.clicks.get(changeId) ?? Promise.resolve();
  }

  /** Resolves once the thread replies queued so far (follow-up steps among them) have been tried. */
  async threadsDone(): Promise<void> {
    while (this.threads.size > 0) await Promise.all([...this.threads.values()]);
  }

  /**
   * Finished changes whose message does not show it (a rewrite lost to a
   * Slack outage left live buttons) are redrawn; their releases are told
   * again, as the same outage may have left a release message behind too.
   * A message whose rewrite is already queued here (housekeeping just moved
   * its change) is left to that rewrite. Runs on its own loop (startup/core.ts),
   * at Slack's pace, apart from the lifecycle's.
   */
  async repair(): Promise<void> {
    const records = await this.d.store.undrawnChanges(FINAL_STATUSES, REPAIR_LIMIT);
    if (records.length === 0) return;
    const ids = records.map((r) => r.id);
    const approvals = await this.d.store.listApprovalsFor(ids);
    // Where their messages are, in one read for all of them (the redraws below find them remembered).
    for (const place of (await this.d.store.changeMessages(ids)).values())
      if (place.messageTs) rememberPlace(this.d, place);
    const changes = records
      .map((record) => toChange(record, approvals.get(record.id) ?? []))
      .filter((change) => !redrawQueued(this.d, change));
    if (changes.length === 0) return;
    const releaseIds = new Set(changes.flatMap((c) => (c.origin.releaseId ? [c.origin.releaseId] : [])));
    for (const releaseId of releaseIds) await this.d.releaseEvents.emit({ releaseId });
    await this.closed(changes);
  }

  /** Sends the reminders and expiry notices housekeeping claimed, each after its own message's redraw (notify.ts). */
  notices(notices: ClaimedNotices): Promise<void> {
    return sendClaimedNotices(this.d, notices);
  }

  private async on(event: ChangeEvent): Promise<void> {
    switch (event.kind) {
      case 'claimed':
        // "Applying…" while the write runs; the click's own rewrite queues behind it (draw.ts).
        return rewriteChangeMessage(this.d, event.change);
      case 'followed':
        // The message shows where the follow-up ended, not the state at apply: a refinement of an
        // outcome already drawn, so behind other messages' outcomes when slots are short, and in the
        // thread's queue, behind the click's own notice (the domain follows up while Slack still draws
        // the click, and the gateway sends a person's notice before a progress redraw otherwise).
        return this.inThread(event.change.id, () => rewriteChangeMessage(this.d, event.change, 'progress'));
      case 'closed':
        return this.closed(event.changes);
      case 'step':
        // After the redraw its recorded state set off (`followed`, told first): the message, then the thread.
        return this.inThread(event.change.id, async () => {
          await redrawTried(this.d, event.change);
          await postFollowStep(this.d, event.change, event.step);
        });
      case 'resumed':
        return this.inThread(event.change.id, () => postFollowResumed(this.d, event.change));
      case 'notices':
        return this.notices(event.notices);
      case 'clicked': {
        const id = event.outcome.change.id;
        const drawn = this.clicked(event.outcome, event.by, event.releaseEnd === true);
        const settled = drawn.catch(() => undefined);
        this.clicks.set(id, settled);
        void settled.then(() => {
          if (this.clicks.get(id) === settled) this.clicks.delete(id);
        });
        return drawn;
      }
      case 'guarded':
        // The message says how its guard ended; the thread says it once, naming the people.
        await rewriteChangeMessage(this.d, event.change);
        return notifyGuard(this.d, event.change, event.outcome, event.rollback);
    }
  }

  /** Queues a reply in the change's thread behind the ones queued before it (a plain queue: no reply is folded). */
  private inThread(changeId: string, post: () => Promise<void>): Promise<void> {
    const run = (this.threads.get(changeId) ?? Promise.resolve())
      .then(post)
      .catch((error: unknown) =>
        this.d.logger.warn('could not post in a change thread', { changeId, error }),
      );
    this.threads.set(changeId, run);
    void run.then(() => {
      if (this.threads.get(changeId) === run) this.threads.delete(changeId);
    });
    return run;
  }

  /**
   * Every change's rewrite is queued at once, before this first waits (the
   * notices housekeeping claims next wait for it: notify.ts); messages are
   * rewritten side by side, each one at a time (draw.ts), at Slack's pace.
   */
  private async closed(changes: readonly Change[]): Promise<void> {
    await Promise.all(
      changes.map(async (change) => {
        await rewriteChangeMessage(this.d, change);
        await markAskAnswered(this.d, change);
      }),
    );
  }

  /**
   * A click's outcome: drawn on the message when it moved something, the
   * ask marked answered, the requester told in the thread, and an applied
   * change followed. The end of a release withdrawing its changes only
   * redraws them: the release's own summary tells the rest.
   */
  private async clicked(outcome: ClickOutcome, by: string, releaseEnd: boolean): Promise<void> {
    if (releaseEnd) {
      if (outcome.kind === 'cancelled') await rewriteChangeMessage(this.d, outcome.change);
      return;
    }
    const drawn = (async () => {
      if (await this.worthDrawing(outcome)) {
        await rewriteChangeMessage(this.d, outcome.change);
        // The ask in the thread is answered now (when the change no longer waits for approvers).
        await markAskAnswered(this.d, outcome.change);
      }
    })();
    // Queued in the thread now, as the event comes, not once the message is drawn: the domain
    // follows the change up after this event, and its first step must come after this notice.
    await this.inThread(outcome.change.id, async () => {
      await drawn;
      await notifyOutcome(this.d, outcome, by);
    });
    await drawn;
  }

  /** Whether a click's outcome should be drawn: `worthDrawing`, with what Slack's table says the message shows. */
  private async worthDrawing(outcome: ClickOutcome): Promise<boolean> {
    const worth = worthDrawing(outcome, this.d.clock.now());
    if (worth !== 'unless-drawn') return worth;
    return (await messageOf(this.d, outcome.change, true))?.drawnStatus !== outcome.change.status;
  }
}

/**
 * Whether a click's outcome should be drawn on the change message. A refused
 * click changed nothing. A stale click on a change another click is still
 * applying must not draw it: its rewrite could land after the applying
 * click's final one and leave "Applying…" for good. A stale click on a
 * finished change redraws it (final states cannot regress) when that repairs
 * something: the message is not known to show it, and the click that settled
 * it is not still drawing it (it settled over REPAIR_AFTER_MS ago). Under a
 * burst of late clicks each redraw would otherwise spend a chat.update slot
 * the workspace shares; housekeeping repairs what a Slack outage left anyway.
 */
function worthDrawing(outcome: ClickOutcome, now: number): boolean | 'unless-drawn' {
  if (outcome.kind === 'refused') return false;
  if (outcome.kind === 'stale') {
    // This click closed it (past its expiry): the message is this click's to draw.
    if (outcome.expiredIt) return true;
    const { status, updatedAt } = outcome.change;
    if (!FINAL_STATUSES.includes(status) || now - updatedAt <= REPAIR_AFTER_MS) return false;
    // Left to what Slack's table says the message shows.
    return 'unless-drawn';
  }
  return true;
}
