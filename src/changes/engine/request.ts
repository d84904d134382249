/** A change request: validated, authorized and planned, then stored pending (or awaiting approval). */
import { randomUUID } from 'node:crypto';
import { UserError } from '../../errors/user-error.js';
import type { ChangeOperation, Target } from '../../policy/operations.js';
import type { Policy, Requirement } from '../../policy/types.js';
import { judgeRequest } from '../authorize.js';
import { type Change, type ChangePlan, toChange } from '../change.js';
import { operationModule } from '../operations/index.js';
import type { EngineCore } from './core.js';
import type { RequestInput } from './options.js';

/**
 * Validates, authorizes and plans a change, and stores it as pending (or
 * awaiting approval). Throws UserError (validation, refusal, not found, ...)
 * with a message meant for the requester.
 */
export async function requestChange(
  core: EngineCore,
  { operation, input, requester, origin }: RequestInput,
): Promise<Change> {
  const { policy, store } = core.o;
  const module = operationModule(operation);
  const request = module.parse(input);
  const judged = module.judgements
    ? await module.judgements(core.context(), request)
    : [{ operation, target: module.target(request) }];
  // A rollback whose originals cannot be read is still judged as a rollback; its plan says what is missing.
  if (judged.length === 0) judged.push({ operation, target: {} });
  const asker = { user: requester, team: origin.workspace, channel: origin.channel };
  const now = core.now();
  for (const j of judged) {
    const decision = await judgeRequest(policy, asker, j.operation, j.target);
    if (decision.allowed) continue;
    await core.audit({
      at: now,
      actor: requester,
      action: 'refused',
      operation,
      params: request,
      origin,
      outcome: decision.reason,
    });
    throw new UserError(decision.reason, 'refused');
  }
  const preview = await module.plan(core.context(), request);
  const { requirement, judgeBy } = strictest(policy, judged);
  const target = judgeBy.target;
  const plan: ChangePlan = {
    preview,
    requirement,
    target,
    ...(judgeBy.operation !== operation ? { judgeBy: judgeBy.operation } : {}),
  };
  const record = await store.createChange({
    id: core.newId(),
    operation,
    request,
    preview: plan,
    requester,
    origin,
    status: requirement.mode === 'approval' ? 'awaiting_approval' : 'pending',
    createdAt: now,
    updatedAt: now,
    expiresAt: now + requirement.expiresInMs,
    applyToken: randomUUID(),
  });
  await core.audit({
    at: now,
    changeId: record.id,
    actor: requester,
    action: 'request',
    operation,
    params: request,
    origin,
    outcome: record.status,
    detail: { rule: requirement.rule, summary: preview.summary },
  });
  return toChange(record, []);
}

/**
 * The strictest requirement among the judged pairs (approval over confirm,
 * then more approvals): one approval, asked once, counts for all of them.
 */
function strictest(
  policy: Policy,
  judged: readonly { operation: ChangeOperation; target: Target }[],
): { requirement: Requirement; judgeBy: { operation: ChangeOperation; target: Target } } {
  let best: { requirement: Requirement; judgeBy: { operation: ChangeOperation; target: Target } } | undefined;
  for (const j of judged) {
    const requirement = policy.requirement(j.operation, j.target);
    const weight = (r: Requirement) => (r.mode === 'approval' ? 1 + r.required : 0);
    if (!best || weight(requirement) > weight(best.requirement)) best = { requirement, judgeBy: j };
  }
  return best as NonNullable<typeof best>;
}
