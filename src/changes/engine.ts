/**
 * The change engine: one lifecycle for every operation that changes the
 * hosting API. request -> (policy) -> plan -> stored pending Change -> click
 * -> (policy again) -> atomic claim -> apply -> recorded result. All state
 * lives in the store, so any replica can take any click, and a double click,
 * a retry or a restart never applies twice.
 */
import { randomUUID } from 'node:crypto';
import type { GameFabricClient } from '../gamefabric/client.js';
import type { ChangeOperation } from '../policy/operations.js';
import type { Policy } from '../policy/types.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import {
  type ChangeOrigin,
  type ChangeRecord,
  type ChangeStatus,
  EXPIRABLE_STATUSES,
  type Store,
} from '../store/types.js';
import { auditedClient } from './audited-client.js';
import { type Change, type ChangeFailure, type ChangePlan, type ClickOutcome, toChange } from './change.js';
import { describeFailure } from './describe-failure.js';
import { UserError } from './errors.js';
import type { FollowEvent, OperationContext } from './operation.js';
import { operationModule } from './operations/index.js';
import { staleMessage } from './stale-message.js';

export interface ChangeEngineOptions {
  client: GameFabricClient;
  store: Store;
  policy: Policy;
  clock: Clock;
  logger: Logger;
  /** This process's name in claims and leases. */
  replicaId: string;
  newId?: () => string;
  follow?: { pollMs?: number; timeoutMs?: number };
  /** How long an apply may hold its lease before another replica may recover the change. */
  applyLeaseMs?: number;
}

export interface RequestInput {
  operation: ChangeOperation;
  /** Untrusted input; validated by the operation before any API call. */
  input: unknown;
  requester: string;
  origin: ChangeOrigin;
}

export interface ClickInput {
  changeId: string;
  user: string;
  channel: string;
}

const APPLYABLE_BY_CONFIRM: readonly ChangeStatus[] = ['pending', 'approved'];

export class ChangeEngine {
  private readonly newId: () => string;
  private readonly applyLeaseMs: number;
  private readonly followOptions: { pollMs: number; timeoutMs: number };

  constructor(private readonly o: ChangeEngineOptions) {
    this.newId = o.newId ?? randomUUID;
    this.applyLeaseMs = o.applyLeaseMs ?? 5 * 60_000;
    this.followOptions = { pollMs: o.follow?.pollMs ?? 2_000, timeoutMs: o.follow?.timeoutMs ?? 5 * 60_000 };
  }

  /**
   * Validates, authorizes and plans a change, and stores it as pending (or
   * awaiting approval). Throws UserError (validation, refusal, not found, ...)
   * with a message meant for the requester.
   */
  async request({ operation, input, requester, origin }: RequestInput): Promise<Change> {
    const module = operationModule(operation);
    const request = module.parse(input);
    const target = module.target(request);
    const decision = await this.o.policy.authorizeRequest({
      user: requester,
      channel: origin.channel,
      operation,
      target,
    });
    const now = this.o.clock.now();
    if (!decision.allowed) {
      await this.audit({
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
    const preview = await module.plan(this.context(), request);
    const requirement = this.o.policy.requirement(operation, target);
    const plan: ChangePlan = { preview, requirement, target };
    const record = await this.o.store.createChange({
      id: this.newId(),
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
    await this.audit({
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

  /** The change with its approvals, or undefined. */
  async get(id: string): Promise<Change | undefined> {
    const record = await this.o.store.getChange(id);
    return record ? toChange(record, await this.o.store.listApprovals(id)) : undefined;
  }

  /** Records where the preview was posted (message ts), so later updates can find it. */
  async setOrigin(id: string, origin: Partial<ChangeOrigin>): Promise<void> {
    await this.o.store.updateChangeOrigin(id, origin, this.o.clock.now());
  }

  /** The requester confirms a pending change (or an approved one whose apply was not started). */
  async confirm({ changeId, user, channel }: ClickInput): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    if (c.status === 'awaiting_approval') {
      return { kind: 'refused', message: 'This change needs approval before it can be applied.', change: c };
    }
    const decision = await this.o.policy.authorizeConfirm({
      user,
      channel,
      requester: c.requester,
      operation: c.operation,
      target: c.target,
    });
    if (!decision.allowed) return this.refuse(c, user, 'confirm', decision.reason);
    return this.claimAndApply(c, user, APPLYABLE_BY_CONFIRM, 'confirm');
  }

  /** An approver approves; when enough distinct approvers have, the change is applied at once. */
  async approve({ changeId, user, channel }: ClickInput): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    if (c.status !== 'awaiting_approval') {
      return {
        kind: 'refused',
        message: 'This change does not need approval; its requester confirms it.',
        change: c,
      };
    }
    const decision = await this.judgeApproval(c, user, channel);
    if (!decision.allowed) return this.refuse(c, user, 'approve', decision.reason);
    const now = this.o.clock.now();
    const added = await this.o.store.addApproval({ changeId, userId: user, decision: 'approve', at: now });
    if (added)
      await this.audit({
        at: now,
        changeId,
        actor: user,
        action: 'approve',
        operation: c.operation,
        origin: c.origin,
      });
    const fresh = (await this.get(changeId)) as Change;
    if (!decision.satisfied) {
      return {
        kind: 'approval_recorded',
        change: fresh,
        count: decision.count ?? 0,
        required: decision.required ?? 0,
      };
    }
    const approved = await this.o.store.transitionChange(
      changeId,
      ['awaiting_approval'],
      'approved',
      {},
      { now },
    );
    if (!approved) return this.explainStale(changeId);
    return this.claimAndApply(toChange(approved, fresh.approvals), user, ['approved'], 'approve');
  }

  /** An approver rejects: the change is closed and will not be applied. */
  async reject({ changeId, user, channel }: ClickInput): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    const decision = await this.judgeApproval(c, user, channel);
    if (!decision.allowed || c.status !== 'awaiting_approval') {
      return this.refuse(
        c,
        user,
        'reject',
        decision.allowed ? 'Only changes awaiting approval can be rejected.' : decision.reason,
      );
    }
    const now = this.o.clock.now();
    await this.o.store.addApproval({ changeId, userId: user, decision: 'reject', at: now });
    return this.close(c, user, ['awaiting_approval', 'approved'], 'rejected');
  }

  /** The requester (or an approver) withdraws a change that has not started applying. */
  async cancel({ changeId, user, channel }: ClickInput): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    const decision = await this.o.policy.authorizeCancel({
      user,
      channel,
      requester: c.requester,
      operation: c.operation,
      target: c.target,
    });
    if (!decision.allowed) return this.refuse(c, user, 'cancel', decision.reason);
    return this.close(c, user, ['pending', 'awaiting_approval', 'approved'], 'cancelled');
  }

  /** Expires every open change past its deadline; returns them so their messages can be updated. */
  async expireDue(): Promise<Change[]> {
    const now = this.o.clock.now();
    const expired = await this.o.store.expireChanges(now);
    const out: Change[] = [];
    for (const record of expired) {
      await this.audit({
        at: now,
        changeId: record.id,
        actor: 'harbormaster',
        action: 'expire',
        operation: record.operation,
        origin: record.origin,
      });
      out.push(toChange(record, await this.o.store.listApprovals(record.id)));
    }
    return out;
  }

  /** Changes awaiting approval that `user` may approve now (for "/harbor approvals"). */
  async approvableBy(user: string, channel: string): Promise<Change[]> {
    const records = await this.o.store.listChanges({ status: ['awaiting_approval'], limit: 200 });
    const out: Change[] = [];
    const now = this.o.clock.now();
    for (const record of records) {
      if (record.expiresAt <= now) continue;
      const c = toChange(record, await this.o.store.listApprovals(record.id));
      const decision = await this.judgeApproval(c, user, channel);
      if (decision.allowed && !c.approvals.some((a) => a.userId === user)) out.push(c);
    }
    return out;
  }

  /**
   * Resolves changes left `applying` by a process that died: reads the API to
   * learn whether the change happened (never re-applies blindly) and records
   * succeeded or failed. Changes whose apply lease is still held by a live
   * replica are left alone.
   */
  async recoverInterrupted(): Promise<Change[]> {
    const records = await this.o.store.listChanges({ status: ['applying'], limit: 500 });
    const out: Change[] = [];
    for (const record of records) {
      const now = this.o.clock.now();
      if (!(await this.o.store.acquireLease(leaseKey(record.id), this.o.replicaId, this.applyLeaseMs, now)))
        continue;
      try {
        out.push(await this.recoverOne(record));
      } finally {
        await this.o.store.releaseLease(leaseKey(record.id), this.o.replicaId);
      }
    }
    return out;
  }

  /** Watches the aftermath of a succeeded change (vessel scheduled, gone, ...). */
  follow(change: Change, signal?: AbortSignal): AsyncIterable<FollowEvent> {
    const module = operationModule(change.operation);
    if (!module.follow || change.status !== 'succeeded' || !change.result) return emptyFollow();
    return module.follow(
      { ...this.context(), ...(signal ? { signal } : {}) },
      this.applyInput(change),
      change.result,
    );
  }

  // ---- internals -----------------------------------------------------------

  private async recoverOne(record: ChangeRecord): Promise<Change> {
    const change = toChange(record, await this.o.store.listApprovals(record.id));
    const module = operationModule(change.operation);
    const ctx = this.context(change, 'recover');
    let verdict: 'applied' | 'not_applied';
    try {
      verdict = await module.verify(ctx, this.applyInput(change));
    } catch (err) {
      // The API could not tell us; leave it applying so a later sweep tries again.
      this.o.logger.warn('recovery could not verify change', { changeId: change.id, error: err });
      return change;
    }
    const now = this.o.clock.now();
    const patch =
      verdict === 'applied'
        ? {
            result: {
              summary: `${change.preview.summary}: done (confirmed after an interruption)`,
              lines: [],
              facts: {},
            },
            applyingOwner: undefined,
          }
        : {
            error: {
              message:
                'Interrupted before the change reached the hosting API; nothing was changed. Request it again.',
              kind: 'interrupted',
            } satisfies ChangeFailure,
            applyingOwner: undefined,
          };
    const to = verdict === 'applied' ? 'succeeded' : 'failed';
    const done = await this.o.store.transitionChange(change.id, ['applying'], to, patch, { now });
    await this.audit({
      at: now,
      changeId: change.id,
      actor: this.o.replicaId,
      action: 'recover',
      operation: change.operation,
      origin: change.origin,
      outcome: to,
    });
    return done ? toChange(done, change.approvals) : change;
  }

  private async claimAndApply(
    c: Change,
    user: string,
    from: readonly ChangeStatus[],
    action: 'confirm' | 'approve',
  ): Promise<ClickOutcome> {
    const now = this.o.clock.now();
    const claimed = await this.o.store.transitionChange(
      c.id,
      from,
      'applying',
      { confirmedBy: user, applyingOwner: this.o.replicaId, applyingSince: now },
      { now },
    );
    if (!claimed) return this.explainStale(c.id);
    if (action === 'confirm') {
      await this.audit({
        at: now,
        changeId: c.id,
        actor: user,
        action: 'confirm',
        operation: c.operation,
        origin: c.origin,
      });
    }
    await this.o.store.acquireLease(leaseKey(c.id), this.o.replicaId, this.applyLeaseMs, now);
    try {
      return await this.runApply(toChange(claimed, c.approvals), user);
    } finally {
      await this.o.store.releaseLease(leaseKey(c.id), this.o.replicaId);
    }
  }

  private async runApply(change: Change, user: string): Promise<ClickOutcome> {
    const module = operationModule(change.operation);
    const ctx = this.context(change, 'apply', user);
    let status: 'succeeded' | 'failed';
    let patch: Parameters<Store['transitionChange']>[3];
    try {
      const result = await module.apply(ctx, this.applyInput(change));
      status = 'succeeded';
      patch = { result, applyingOwner: undefined };
    } catch (err) {
      const failure = describeFailure(err, this.o.logger, { changeId: change.id });
      // A write that got no clear answer may still have happened: ask the API before saying "nothing changed".
      const unclear =
        failure.kind === 'unreachable' || (failure.status !== undefined && failure.status >= 500);
      const verdict = unclear
        ? await module.verify(ctx, this.applyInput(change)).catch(() => 'unknown' as const)
        : 'not_applied';
      if (verdict === 'applied') {
        status = 'succeeded';
        patch = {
          result: {
            summary: `${change.preview.summary}: done (the API answered unclearly, but the change is there)`,
            lines: [],
            facts: {},
          },
          applyingOwner: undefined,
        };
      } else {
        status = 'failed';
        if (verdict === 'unknown') {
          failure.message = `${failure.message.replace(/; nothing was changed\.?$/, '.')} Whether it took effect could not be checked; look before retrying.`;
        }
        patch = { error: failure, applyingOwner: undefined };
      }
    }
    const now = this.o.clock.now();
    const done = await this.o.store.transitionChange(change.id, ['applying'], status, patch, { now });
    await this.audit({
      at: now,
      changeId: change.id,
      actor: user,
      action: 'apply',
      operation: change.operation,
      origin: change.origin,
      outcome: status,
      detail:
        status === 'succeeded' ? { summary: (patch?.result as { summary: string }).summary } : patch?.error,
    });
    const final = done ? toChange(done, change.approvals) : ((await this.get(change.id)) as Change);
    return status === 'succeeded' ? { kind: 'applied', change: final } : { kind: 'failed', change: final };
  }

  /** Loads a change and answers for it when it is missing, final, or past its expiry. */
  private async actionable(
    id: string,
  ): Promise<{ kind: 'ok'; change: Change } | { kind: 'done'; outcome: ClickOutcome }> {
    const change = await this.get(id);
    if (!change)
      throw new UserError('This change no longer exists (it may have been cleaned up).', 'not_found');
    const now = this.o.clock.now();
    if (EXPIRABLE_STATUSES.includes(change.status) && change.expiresAt <= now) {
      const expired = await this.o.store.transitionChange(id, EXPIRABLE_STATUSES, 'expired', {}, { now });
      if (expired) {
        await this.audit({
          at: now,
          changeId: id,
          actor: 'harbormaster',
          action: 'expire',
          operation: change.operation,
          origin: change.origin,
        });
      }
      return { kind: 'done', outcome: await this.explainStale(id) };
    }
    if (!EXPIRABLE_STATUSES.includes(change.status)) {
      return { kind: 'done', outcome: { kind: 'stale', message: staleMessage(change), change } };
    }
    return { kind: 'ok', change };
  }

  private async explainStale(id: string): Promise<ClickOutcome> {
    const change = (await this.get(id)) as Change;
    return { kind: 'stale', message: staleMessage(change), change };
  }

  private async refuse(c: Change, user: string, action: string, reason: string): Promise<ClickOutcome> {
    await this.audit({
      at: this.o.clock.now(),
      changeId: c.id,
      actor: user,
      action: `${action}_refused`,
      operation: c.operation,
      origin: c.origin,
      outcome: reason,
    });
    return { kind: 'refused', message: reason, change: c };
  }

  /** Closes an open change as rejected or cancelled by `user`, atomically; stale if someone got there first. */
  private async close(
    c: Change,
    user: string,
    from: readonly ChangeStatus[],
    kind: 'rejected' | 'cancelled',
  ): Promise<ClickOutcome> {
    const now = this.o.clock.now();
    const verb = kind === 'rejected' ? 'Rejected' : 'Cancelled';
    const failure: ChangeFailure = { message: `${verb} by <@${user}>.`, kind, by: user };
    const done = await this.o.store.transitionChange(c.id, from, 'cancelled', { error: failure }, { now });
    if (!done) return this.explainStale(c.id);
    await this.audit({
      at: now,
      changeId: c.id,
      actor: user,
      action: kind === 'rejected' ? 'reject' : 'cancel',
      operation: c.operation,
      origin: c.origin,
    });
    return { kind, change: (await this.get(c.id)) as Change };
  }

  /** The policy's verdict on `user` approving (or rejecting) `c` now. */
  private judgeApproval(c: Change, user: string, channel: string) {
    return this.o.policy.authorizeApproval({
      user,
      channel,
      requester: c.requester,
      operation: c.operation,
      target: c.target,
      approvals: c.approvals,
      now: this.o.clock.now(),
      expiresAt: c.expiresAt,
    });
  }

  private applyInput(change: Change) {
    return { request: change.request, preview: change.preview, applyToken: change.applyToken };
  }

  /** The context an operation runs in; with a change, its API calls are audited. */
  private context(change?: Change, phase?: string, actor?: string): OperationContext {
    const client = change
      ? auditedClient(this.o.client, (entry) =>
          this.audit({
            ...entry,
            at: this.o.clock.now(),
            changeId: change.id,
            actor: actor ?? this.o.replicaId,
            action: 'api_call',
            operation: change.operation,
            origin: change.origin,
            detail: { phase, ...(entry.detail as object | undefined) },
          }),
        )
      : this.o.client;
    return { client, clock: this.o.clock, logger: this.o.logger, follow: this.followOptions };
  }

  private async audit(entry: {
    at: number;
    actor: string;
    action: string;
    changeId?: string;
    operation?: string;
    params?: unknown;
    origin?: ChangeOrigin;
    outcome?: string;
    detail?: unknown;
  }): Promise<void> {
    const { origin, ...rest } = entry;
    try {
      await this.o.store.appendAudit({ ...rest, workspace: origin?.workspace, channel: origin?.channel });
    } catch (err) {
      // The audit must never turn a done change into a reported failure; it is logged loudly instead.
      this.o.logger.error('audit write failed', {
        error: err,
        action: entry.action,
        changeId: entry.changeId,
      });
    }
  }
}

function leaseKey(changeId: string): string {
  return `apply:${changeId}`;
}

async function* emptyFollow(): AsyncIterable<FollowEvent> {}
