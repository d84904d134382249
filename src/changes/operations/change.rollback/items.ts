/**
 * The originals a rollback works on: each as its preview stores it (an item:
 * what the original did, what its inverse does and where it writes), made
 * from the rollback ledger's entries, which every step reads.
 */
import { UserError } from '../../../errors/user-error.js';
import type { ChangeOperation, Target } from '../../../policy/operations.js';
import type { OperationContext, Preview } from '../../operation.js';
import { inverseOperation } from '../../rollback/eligibility.js';
import type { LedgerEntry, RollbackLedger } from '../../rollback/ledger.js';
import type { Undo } from '../../rollback/undo.js';
import { inverseFor, viewOf } from '../../rollback/undone-by.js';

/** One original change as the rollback's preview stores it. */
export interface RollbackItem {
  changeId: string;
  operation: string;
  requester: string;
  appliedAt: number;
  /** What the original did, in words. */
  summary: string;
  /** What the inverse does, in words. */
  inverseSummary: string;
  undo: Undo;
  inverse: { operation: ChangeOperation; target: Target };
  origin: LedgerEntry['origin'];
  /** Set in a release preview when the guard already finds the target moved: this one will be refused. */
  moved?: string;
  /** Set in a release preview when the image it writes back is gone from its branch: this one will be refused. */
  gone?: string;
}

/** An original the release rollback leaves out, and why. */
export interface Skipped {
  changeId: string;
  summary: string;
  reason: string;
}

/** The ledger the engine hands a rollback; its absence is a wiring bug, not the requester's. */
export function ledgerOf(ctx: OperationContext): RollbackLedger {
  if (!ctx.ledger) throw new Error('change.rollback needs the rollback ledger in its context');
  return ctx.ledger;
}

/** The items of a rollback preview (newest first). */
export function rollbackItems(preview: Preview): RollbackItem[] {
  return (preview.facts.items ?? []) as RollbackItem[];
}

/** The environments an item's inverse writes to: its target's, and a promotion's rolled-out targets'. */
export function undoEnvironments(item: RollbackItem): string[] {
  const { restore, request } = inverseFor(item);
  const envs = restore.environments?.(request) ?? [];
  if (item.inverse.target.environment) envs.push(item.inverse.target.environment);
  return [...new Set(envs)];
}

/** The ledger's entries for `ids`, in order: an unknown id is refused as the requester's to fix. */
export async function entries(ledger: RollbackLedger, ids: readonly string[]): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  for (const id of ids) {
    const entry = await ledger.get(id);
    if (!entry)
      throw new UserError(`There is no change ${id} (see /harbor history for change ids).`, 'not_found');
    out.push(entry);
  }
  return out;
}

/** The item for an entry that recorded its inverse (the caller has checked it may be rolled back). */
export function itemOf(entry: LedgerEntry): RollbackItem {
  const undo = entry.undo as Undo;
  const view = viewOf({ operation: entry.operation, undo });
  return {
    changeId: entry.id,
    operation: entry.operation,
    requester: entry.requester,
    appliedAt: entry.appliedAt ?? 0,
    summary: entry.summary,
    inverseSummary: view.summary,
    undo,
    inverse: { operation: inverseOperation(entry.operation) as ChangeOperation, target: view.target },
    origin: entry.origin,
  };
}
