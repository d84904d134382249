/**
 * What the change engine tells whoever shows changes: each event says that a
 * change moved (or what a follow-up learned) as data. The engine knows
 * nothing of who listens; the Slack layer's change-message owner
 * (src/slack/change-messages) redraws the message, its thread replies and
 * the ask for approval from these events alone.
 */
import { Events } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Change, ClickOutcome } from './change.js';
import type { GuardOutcome } from './guard-outcome.js';

export type ChangeEvent =
  /** A click claimed the change and its apply starts: told before the API is called, not awaited. */
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
   * settlement stored late.
   */
  | { kind: 'closed'; changes: Change[] }
  /**
   * Housekeeping found applied changes whose follow-up nobody runs: `landed`,
   * a dead or unanswered apply a read now shows applied (never followed);
   * `resumed`, a follow-up whose replica stopped before its end (follow-due.ts).
   * They are followed up as an applied click's change is, by whichever replica
   * takes the follow-up lease.
   */
  | { kind: 'follow'; changes: Change[]; why: 'landed' | 'resumed' }
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
