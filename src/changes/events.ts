/**
 * What the change engine tells whoever shows changes: each event says that a
 * change moved (or what a follow-up learned) as data. The engine knows
 * nothing of who listens and never waits for them: it publishes each event
 * after the store commits (changes/publish.ts: an outbox row in the same
 * transaction as the write, then this replica's listeners told without being
 * awaited), and every other replica reads the outbox (changes/outbox-reader.ts).
 * The Slack layer's change-message owner (src/slack/change-messages) redraws
 * the message, its thread replies and the ask for approval from these alone.
 */
import { Events } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Change, ClickOutcome } from './change.js';
import type { ClaimedNotices } from './change-notices.js';
import type { GuardOutcome } from './guard-outcome.js';
import type { FollowEvent } from './operation.js';

export type ChangeEvent =
  /** A click claimed the change and its apply starts: told before the API is called. */
  | { kind: 'claimed'; change: Change }
  /**
   * A click's outcome, whatever it was (refused and stale ones too: the
   * listener decides what is worth a redraw). `by` clicked; `releaseEnd`
   * when the click was the end of the change's release withdrawing it.
   */
  | { kind: 'clicked'; outcome: ClickOutcome; by: string; releaseEnd?: true }
  /** A follow-up of an applied change saw a new state and recorded it on the result. */
  | { kind: 'followed'; change: Change }
  /**
   * Housekeeping moved changes without a click: expired, recovered from a
   * dead apply, a promotion that became visible (or never did), a
   * settlement stored late, an original a rollback claimed. `ownOnly`: only
   * the changes' own messages show what moved (a promotion now visible, an
   * original now rolled back), not their releases'.
   */
  | { kind: 'closed'; changes: Change[]; ownOnly?: true }
  /**
   * A step of an applied change's follow-up (scheduled, running, gone, ...),
   * which the domain runs on whichever replica holds its lease (Slack or not):
   * for the change's thread. `resumed` comes first when a replica takes up a
   * follow-up another one stopped before its end (its steps may repeat).
   */
  | { kind: 'step'; change: Change; step: FollowEvent }
  | { kind: 'resumed'; change: Change }
  /**
   * Notices housekeeping claimed once (changes/change-notices.ts): approvers
   * reminded, requesters told their request expired. Whoever shows them
   * gives back one it could not deliver (`ChangeEngine.giveBackNotice`).
   */
  | { kind: 'notices'; notices: ClaimedNotices }
  /**
   * A guarded change's guard ended (issue 42): its window passed clean, it
   * rolled the change back automatically (`rollback`, the rollback change),
   * or a trigger fired and nothing was written (the reason is in `outcome`).
   * `change` carries the outcome in its result (guard-outcome.ts).
   */
  | { kind: 'guarded'; change: Change; outcome: GuardOutcome; rollback?: Change };

/** Where the change engine tells what moved. */
export type ChangeEvents = Events<ChangeEvent>;

export function createChangeEvents(logger?: Logger): ChangeEvents {
  return new Events<ChangeEvent>(logger);
}

/** The changes an event is about (for the releases they belong to). */
export function changesOf(event: ChangeEvent): Change[] {
  switch (event.kind) {
    case 'clicked':
      return [event.outcome.change];
    case 'closed':
      return event.changes;
    case 'notices':
      return [];
    default:
      return [event.change];
  }
}
