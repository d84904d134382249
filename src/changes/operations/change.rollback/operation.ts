/**
 * `change.rollback`: undo applied changes (one, or every change of a release
 * newest first) through the same lifecycle as any change. Plan reads each
 * original from the store, checks it may be rolled back, and reads its target
 * (the guard) so the preview says before -> after (preview.ts). Apply, per
 * original and in order: claim it in the store (one rollback of a change ever
 * writes), check the window and the guard again, and write the inverse
 * guarded by what the original left (apply.ts). The first refusal stops the
 * rest; what was rolled back and what not (and why) is the result
 * (outcome.ts, refusals.ts). No force: a moved target is refused.
 */
import type { OperationModule } from '../../operation.js';
import { type RollbackRequest, rollbackSchema } from '../../requests/rollback.js';
import { parseRequest } from '../../requests/vocabulary.js';
import { applyRollback, verifyRollback } from './apply.js';
import { CHANGE_ROLLBACK } from './id.js';
import { rollbackItems, undoEnvironments } from './items.js';
import { rollbackJudgements } from './judgements.js';
import { planRollback } from './preview.js';

export const rollbackChange: OperationModule<RollbackRequest> = {
  parse: (input) => parseRequest(rollbackSchema, input),

  // The targets are the originals' (read from the store): the engine asks `judgements` instead.
  target: () => ({}),

  judgements: rollbackJudgements,

  // Where each inverse writes, with when its original was applied: a rollback of a change applied
  // before a freeze began is how one gets out of trouble, so that freeze lets it through.
  freezeScope: (_r, preview) => ({
    places: rollbackItems(preview).flatMap((item) =>
      undoEnvironments(item).map((env) => ({ env, undoesChangeAppliedAt: item.appliedAt })),
    ),
  }),

  plan: planRollback,

  // The rollback claims its originals in its own name: the engine always passes the change's id.
  apply: (ctx, { preview, changeId }) => applyRollback(ctx, preview, changeId as string),

  verify: (ctx, { preview }) => verifyRollback(ctx, preview),
};

/** Whether `operation` is a rollback (which a release rollback leaves out: a rollback is not rolled back). */
export function isRollback(operation: string): boolean {
  return operation === CHANGE_ROLLBACK;
}

/** The request that rolls back `changeIds`, every applied change of release `releaseId`. */
export function releaseRollbackInput(
  changeIds: string[],
  releaseId: string,
): { operation: typeof CHANGE_ROLLBACK; input: RollbackRequest } {
  return { operation: CHANGE_ROLLBACK, input: { changeIds, releaseId } };
}

/** The request that rolls back the one change `changeId` (a guard's automatic rollback, issue 42). */
export function changeRollbackInput(changeId: string): {
  operation: typeof CHANGE_ROLLBACK;
  input: RollbackRequest;
} {
  return { operation: CHANGE_ROLLBACK, input: { changeIds: [changeId] } };
}
