/**
 * The one owner of a change's Slack message: it posts the message, rewrites
 * it as the change moves, posts the thread replies (outcome notices, the
 * ask for approval, reminders, follow-ups) and marks the ask answered.
 * Nothing else in the bot posts or edits these (test/architecture/
 * change-message-owner.test.ts). It learns what moved from the engine's
 * events (changes/events.ts), as release threads learn from theirs; the
 * click handlers only ask the engine and answer the person.
 */
import { type Change, type ClickOutcome, FINAL_STATUSES, toChange } from '../../changes/change.js';
import type { ClaimedNotices } from '../../changes/change-notices.js';
import type { ChangeEvent, ChangeEvents } from '../../changes/events.js';
import { markAskAnswered } from './ask-reply.js';
import type { ChangeMessageDeps } from './deps.js';
import { postChangeMessage, redrawQueued, rewriteChangeMessage } from './draw.js';
import { followUp } from './follow-ups.js';
import { notifyApprovers, notifyGuard, notifyOutcome, sendClaimedNotices } from './notify.js';

/** How long the click that settled a change may take to draw it before a late click repairs the message. */
const REPAIR_AFTER_MS = 10_000;

/** How many finished changes whose message does not show it one housekeeping pass redraws. */
const REPAIR_LIMIT = 50;

export class ChangeMessages {
  constructor(private readonly d: ChangeMessageDeps) {}

  /** Redraws on the engine's events until the returned function is called. */
  listen(events: ChangeEvents): () => void {
    return events.on((event) => this.on(event));
  }

  /**
   * Posts a requested change's message (and records where it is), then asks
   * the approvers the policy names in its thread. Throws when Slack refuses
   * the message itself (nobody could confirm the change then).
   */
  async post(change: Change): Promise<Change> {
    const ts = await postChangeMessage(this.d, change);
    const posted = { ...change, origin: { ...change.origin, messageTs: ts } };
    await notifyApprovers(this.d, posted);
    return posted;
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
    const records = await this.d.store.listChanges({
      status: FINAL_STATUSES,
      undrawn: true,
      limit: REPAIR_LIMIT,
    });
    if (records.length === 0) return;
    const approvals = await this.d.store.listApprovalsFor(records.map((r) => r.id));
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
        // outcome already drawn, so behind other messages' outcomes when slots are short.
        return rewriteChangeMessage(this.d, event.change, 'progress');
      case 'closed':
        return this.closed(event.changes);
      case 'follow':
        for (const change of event.changes) this.follow(change, event.why === 'resumed');
        return;
      case 'clicked':
        return this.clicked(event.outcome, event.by, event.releaseEnd === true);
      case 'guarded':
        // The message says how its guard ended; the thread says it once, naming the people.
        await rewriteChangeMessage(this.d, event.change);
        return notifyGuard(this.d, event.change, event.outcome, event.rollback);
    }
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
    if (worthDrawing(outcome, this.d.clock.now())) {
      await rewriteChangeMessage(this.d, outcome.change);
      // The ask in the thread is answered now (when the change no longer waits for approvers).
      await markAskAnswered(this.d, outcome.change);
    }
    await notifyOutcome(this.d, outcome, by);
    if (outcome.kind === 'applied') this.follow(outcome.change, false);
  }

  /**
   * Follows an applied change up in its thread, apart from request work: it can take minutes, and
   * idle() means "answered". A `resumed` one says first that it starts again (steps may repeat).
   */
  private follow(change: Change, resumed: boolean): void {
    void this.d.followUps.run('follow-up', () => followUp(this.d, change, resumed));
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
function worthDrawing(outcome: ClickOutcome, now: number): boolean {
  if (outcome.kind === 'refused') return false;
  if (outcome.kind === 'stale') {
    // This click closed it (past its expiry): the message is this click's to draw.
    if (outcome.expiredIt) return true;
    const { status, drawnStatus, updatedAt } = outcome.change;
    return FINAL_STATUSES.includes(status) && drawnStatus !== status && now - updatedAt > REPAIR_AFTER_MS;
  }
  return true;
}
