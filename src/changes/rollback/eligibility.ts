/**
 * Whether an earlier change may be rolled back now, and if not why, in plain
 * words the requester reads: not applied, an operation with no inverse (and
 * why), nothing recorded to undo it with, past the rollback window, or
 * already rolled back (by which change, when).
 */
import { formatUtcMinute } from '../../format/time.js';
import { type ChangeOperation, describe, isOperation } from '../../operations/index.js';
import type { LedgerEntry } from './ledger.js';
import { nothingToSetBack } from './undo.js';

/** Why Roll back is never offered for `operation` (its descriptor says), or undefined. */
function notOffered(operation: string): string | undefined {
  if (!isOperation(operation)) return 'Harbormaster does not know its operation any more';
  const rollback = describe(operation).rollback;
  return rollback && 'notOffered' in rollback
    ? rollback.notOffered
    : rollback
      ? undefined
      : 'it has no inverse';
}

/** The operation whose policy rules judge the inverse of `operation` (its descriptor's `rollback.inverse`). */
export function inverseOperation(operation: string): ChangeOperation | undefined {
  if (!isOperation(operation)) return undefined;
  const rollback = describe(operation).rollback;
  return rollback && 'inverse' in rollback ? (rollback.inverse as ChangeOperation) : undefined;
}

/** Statuses whose hold on a change's rollback claim is over: the claim may be taken again. */
export const SPENT_ROLLBACK: readonly string[] = ['failed', 'cancelled', 'expired'];

/** Why change `entry` cannot be rolled back now, or undefined when it can (its claim is checked apart). */
export function ineligible(entry: LedgerEntry, now: number, windowMs: number): string | undefined {
  const reason = notOffered(entry.operation);
  if (reason) return `Change ${entry.id} cannot be rolled back: ${reason}.`;
  if (entry.status !== 'succeeded') {
    return `Change ${entry.id} was not applied (it is ${entry.status.replace('_', ' ')}), so there is nothing to roll back.`;
  }
  if (!entry.undo || entry.appliedAt === undefined) {
    return `Change ${entry.id} cannot be rolled back: Harbormaster did not record the state it replaced (it applied before rollback existed, or was settled after an interruption). Make the inverse change by hand.`;
  }
  const nothing = nothingToSetBack(entry.undo);
  if (nothing) return `Change ${entry.id} cannot be rolled back: ${nothing}.`;
  const until = entry.appliedAt + windowMs;
  if (now >= until) {
    const days = Math.round(windowMs / 86_400_000);
    return `Change ${entry.id} can no longer be rolled back: Roll back is offered for ${days} ${days === 1 ? 'day' : 'days'} after a change applies (until ${formatUtcMinute(until)}; HARBOR_ROLLBACK_DAYS). Make the inverse change by hand.`;
  }
  return undefined;
}

/** Why `entry`, claimed by rollback `holder`, is not rolled back again. */
export function alreadyRolledBack(entry: LedgerEntry, holder: LedgerEntry | undefined): string {
  const by = entry.rolledBackBy ?? 'another rollback';
  if (holder?.status === 'succeeded') {
    return `Change ${entry.id} was already rolled back, by change ${by} at ${formatUtcMinute(holder.appliedAt ?? entry.rolledBackAt ?? 0)}; nothing was changed.`;
  }
  return `Change ${entry.id} is being rolled back by change ${by} right now; nothing was changed.`;
}
