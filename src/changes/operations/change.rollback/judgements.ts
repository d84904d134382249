/**
 * What the policy judges a rollback by: `change.rollback` on each original's
 * target, and the inverse operation on each target it writes, so a rollback
 * needs whatever the write it makes would need.
 */
import type { ChangeOperation, Target } from '../../../policy/operations.js';
import type { OperationContext } from '../../operation.js';
import type { RollbackRequest } from '../../requests/rollback.js';
import { inverseOperation } from '../../rollback/eligibility.js';
import { viewOf } from '../../rollback/undone-by.js';
import { CHANGE_ROLLBACK } from './id.js';
import { ledgerOf } from './items.js';

/** The original changes a rollback request names, for the policy: change.rollback on each target, and each inverse. */
export async function rollbackJudgements(
  ctx: OperationContext,
  r: RollbackRequest,
): Promise<{ operation: ChangeOperation; target: Target }[]> {
  const ledger = ledgerOf(ctx);
  const out: { operation: ChangeOperation; target: Target }[] = [];
  for (const id of r.changeIds) {
    const entry = await ledger.get(id);
    const inverse = entry?.undo && inverseOperation(entry.operation);
    if (!entry?.undo || !inverse) continue;
    const view = viewOf({ operation: entry.operation, undo: entry.undo });
    // An inverse writing several targets (a promotion's fleets) is judged on each.
    for (const j of view.judgements ?? [{ operation: inverse, target: view.target }]) {
      out.push({ operation: CHANGE_ROLLBACK, target: j.target });
      out.push(j);
    }
    for (const target of view.judgedAsOriginal ?? []) {
      out.push({ operation: CHANGE_ROLLBACK, target });
      out.push({ operation: entry.operation as ChangeOperation, target });
    }
  }
  return out;
}
