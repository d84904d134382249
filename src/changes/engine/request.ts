/** A change request: validated, authorized and planned, then stored pending (or awaiting approval). */
import { randomUUID } from 'node:crypto';
import { UserError } from '../../errors/user-error.js';
import { blockingFreeze } from '../../freezes/in-force.js';
import { freezeRefusal } from '../../freezes/words.js';
import type { ChangeOperation, Target } from '../../policy/operations.js';
import type { Policy, Requirement } from '../../policy/types.js';
import { judgeRequest } from '../authorize.js';
import { type BreakGlass, type Change, type ChangePlan, toChange } from '../change.js';
import { GuardRefusedError, ScheduleTimeError } from '../errors.js';
import { freezeScope } from '../freeze-scope.js';
import { chooseGuard, guardNote } from '../guard-choice.js';
import { operationModule } from '../operations/index.js';
import { parseWhen } from '../schedule/when.js';
import type { EngineCore } from './core.js';
import type { RequestInput } from './options.js';

/**
 * Validates, authorizes and plans a change, and stores it as pending (or
 * awaiting approval). Throws UserError (validation, refusal, not found, ...)
 * with a message meant for the requester.
 */
export async function requestChange(
  core: EngineCore,
  { operation, input, requester, origin, breakGlass: breakGlassReason, at, guard: guardAsk }: RequestInput,
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
  // Every refusal is audited with its reason, then thrown (as `error` when it has words for a form too).
  const refuse = async (reason: string, error = new UserError(reason, 'refused')): Promise<never> => {
    await core.audit({
      at: now,
      actor: requester,
      action: 'refused',
      operation,
      params: request,
      origin,
      outcome: reason,
    });
    throw error;
  };
  for (const j of judged) {
    const decision = await judgeRequest(policy, asker, j.operation, j.target);
    if (!decision.allowed) await refuse(decision.reason);
  }
  // An unreadable time, one in the past or too far ahead, is refused before anything is read.
  const scheduledAt = at === undefined ? undefined : readScheduledAt(core, at, now);
  if (breakGlassReason !== undefined && !policy.breakGlass) {
    await refuse(
      '`--break-glass` is refused: the policy has no `break_glass` section, so nobody may let a change through a freeze. Ask whoever maintains the policy to add one (docs/policy.md), or wait for the freeze to end.',
    );
  }
  // The guard is the change's own rule's (a guard watches its own rollout), decided before the API is read.
  const chosen = chooseGuard(operation, policy.requirement(operation, module.target(request)), guardAsk);
  if ('refusal' in chosen) {
    const { command, form } = chosen.refusal;
    await refuse(command, new GuardRefusedError(command, form));
  }
  const guard = 'guard' in chosen ? chosen.guard : undefined;
  const planned = await module.plan(core.context(), request);
  const preview = guard ? { ...planned, notes: [...planned.notes, guardNote(guard)] } : planned;
  const { requirement: ruled, judgeBy } = strictest(policy, judged);
  const target = judgeBy.target;
  // The freeze check comes after the plan (a promotion's environments are those it rolls out to) and before
  // anything is stored or posted: a refused change gets no preview.
  const scope = freezeScope(operation, request, module.target(request), preview);
  // A scheduled change is judged by the freezes in force at its time (it is written then, not now).
  const freeze = await blockingFreeze(core.freezeSources(), scope, scheduledAt ?? now);
  let breakGlass: BreakGlass | undefined;
  if (breakGlassReason !== undefined) {
    if (!freeze) {
      const where = scope.places.map((p) => p.env);
      await refuse(
        `No freeze is in force ${where.length > 0 ? `in ${[...new Set(where)].join(', ')}` : 'where this change acts'}, so there is none to break: request it again without \`--break-glass\`.`,
      );
    }
    const shortfall = await policy.breakGlassShortfall(requester, origin.workspace);
    if (shortfall) await refuse(shortfall);
    breakGlass = { reason: breakGlassReason, freeze: freeze as NonNullable<typeof freeze> };
  } else if (freeze) {
    await refuse(freezeRefusal(freeze, core.names, policy.breakGlass !== undefined));
  }
  const requirement = breakGlass ? (policy.breakGlassRequirement(judgeBy.operation, target) ?? ruled) : ruled;
  const plan: ChangePlan = {
    preview,
    requirement,
    target,
    ...(judgeBy.operation !== operation ? { judgeBy: judgeBy.operation } : {}),
    ...(breakGlass ? { breakGlass } : {}),
    ...(guard ? { guard } : {}),
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
    ...(scheduledAt !== undefined ? { scheduledAt } : {}),
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
    detail: {
      rule: requirement.rule,
      summary: preview.summary,
      // The audit says it broke a freeze: which, and why its requester said it must.
      ...(breakGlass ? { breakGlass } : {}),
      ...(scheduledAt !== undefined ? { scheduledAt } : {}),
      ...(guard ? { guard } : {}),
    },
  });
  return toChange(record, []);
}

/** The instant `at` names, or a UserError that says why it names none (with the accepted forms). */
function readScheduledAt(core: EngineCore, at: string, now: number): number {
  const read = parseWhen(at, now, core.schedule.maxAheadMs);
  if ('problem' in read) throw new ScheduleTimeError(`When it applies: ${read.problem}`);
  return read.at;
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
