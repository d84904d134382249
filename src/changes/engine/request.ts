/** A change request: validated, authorized and planned, then stored pending (or awaiting approval). */
import { randomUUID } from 'node:crypto';
import { UserError } from '../../errors/user-error.js';
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
  const target = module.target(request);
  const asker = { user: requester, team: origin.workspace, channel: origin.channel };
  const decision = await judgeRequest(policy, asker, operation, target);
  const now = core.now();
  if (!decision.allowed) {
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
  const requirement = policy.requirement(operation, target);
  const plan: ChangePlan = { preview, requirement, target };
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
