/**
 * How a guarded change's guard ended (issue 42), as data kept on the change
 * (`result.facts.guard`, as a follow-up's end is) so its message, thread and
 * Home say the same; only renderers write the words.
 */
import type { Change } from './change.js';

export type GuardOutcome =
  /** The window passed with no trigger. */
  | { state: 'passed'; withinMs: number }
  /** A trigger fired and the change was rolled back automatically, by rollback change `rollbackId`. */
  | { state: 'rolled_back'; withinMs: number; trigger: string; rollbackId: string; rule: string }
  /**
   * A trigger fired but nothing was written: `reason` says why (the target
   * moved since the change, it was already rolled back, the rollback was
   * refused); a person decides.
   */
  | { state: 'held'; withinMs: number; trigger: string; reason: string; rollbackId?: string };

/** The guard's end stored on `change`, if it ended. */
export function guardOutcomeOf(change: Pick<Change, 'result'>): GuardOutcome | undefined {
  return change.result?.facts.guard as GuardOutcome | undefined;
}

/** Who a guard's message mentions: the requester and everyone who approved, once each. */
export function guardPeople(change: Pick<Change, 'requester' | 'approvals'>): string[] {
  const approvers = change.approvals.filter((a) => a.decision === 'approve').map((a) => a.userId);
  return [...new Set([change.requester, ...approvers])];
}
