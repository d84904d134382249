/**
 * The change engine: one lifecycle for every operation that changes the
 * hosting API. request -> (policy) -> plan -> stored pending Change -> click
 * -> (policy again) -> atomic claim -> apply -> recorded result. All state
 * lives in the store, so any replica can take any click, and a double click,
 * a retry or a restart never applies twice.
 */

import { randomUUID } from 'node:crypto';
import { UserError } from '../errors/user-error.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import type { ChangeOperation } from '../policy/operations.js';
import type { Policy, ClickInput as PolicyClickInput } from '../policy/types.js';
import type { Clock } from '../runtime/clock.js';
import { Events, type ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import { StoreError } from '../store/errors.js';
import {
  type ApprovalStore,
  type AuditStore,
  type ChangeOrigin,
  type ChangeRecord,
  type ChangeStatus,
  type ChangeStore,
  EXPIRABLE_STATUSES,
  type LeaseStore,
} from '../store/types.js';
import { DEFAULT_APPLY_LEASE_MS, holdApplyLease, uniqueOwner } from './apply-lease.js';
import { auditedClient } from './audited-client.js';
import { judgeRequest } from './authorize.js';
import {
  type Change,
  type ChangeFailure,
  type ChangePlan,
  type ClickOutcome,
  FINAL_STATUSES,
  isUnconfirmed,
  toChange,
} from './change.js';
import { describeFailure } from './describe-failure.js';
import type { FollowEvent, OperationContext } from './operation.js';
import { operationModule } from './operations/index.js';
import { asSettled, PendingRecords } from './pending-records.js';
import { awaitsVisibility, PROMOTION_SETTLE_MS, recheckPromotion } from './promotion-recheck.js';
import { settleInterruptedApply } from './settle-interrupted.js';
import { recheckUnconfirmed, type Settlement, settleFailedApply } from './settle-outcome.js';
import { staleReason } from './stale-reason.js';

/** The parts of the store the engine uses: changes, their approvals and audit, and apply leases. */
type ChangeEngineStore = ChangeStore & ApprovalStore & AuditStore & LeaseStore;

interface ChangeEngineOptions {
  client: GameFabricClient;
  store: ChangeEngineStore;
  policy: Policy;
  clock: Clock;
  logger: Logger;
  /** This process's name in claims and leases. */
  replicaId: string;
  newId?: () => string;
  follow?: { pollMs?: number; timeoutMs?: number };
  /** The configured environments (HARBOR_ENVIRONMENTS): used where the API will not list them. */
  environments?: readonly string[];
  /** TTL of an apply's lease (renewed every third of it while the apply runs): how soon a dead owner's change is recovered. */
  applyLeaseMs?: number;
  /** Told when a change of a release is requested or moves, so what shows the release can redraw. */
  releaseEvents?: ReleaseEvents;
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
  /** Why an approver rejects (reject only); kept with the change and in the audit. */
  reason?: string;
  /** The clicker's workspace (Slack team id), judged by the policy and written to the audit. */
  team: string;
  /**
   * Told (not awaited) the moment this click has claimed the change, before
   * the API is called, so its message can show "Applying…" instead of live
   * buttons for as long as the write takes.
   */
  onClaimed?: (change: Change) => void;
}

const APPLYABLE_BY_CONFIRM: readonly ChangeStatus[] = ['pending', 'approved'];

export class ChangeEngine {
  private readonly newId: () => string;
  private readonly applyLeaseMs: number;
  private readonly followOptions: { pollMs: number; timeoutMs: number };
  private readonly releaseEvents: ReleaseEvents;
  private readonly pendingRecords = new PendingRecords();

  constructor(private readonly o: ChangeEngineOptions) {
    this.newId = o.newId ?? randomUUID;
    this.releaseEvents = o.releaseEvents ?? new Events();
    this.applyLeaseMs = o.applyLeaseMs ?? DEFAULT_APPLY_LEASE_MS;
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
    const asker = { user: requester, team: origin.workspace, channel: origin.channel };
    const decision = await judgeRequest(this.o.policy, asker, operation, target);
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

  /**
   * Records where the preview was posted (message ts), so later updates can
   * find it. A new change of a release is announced here rather than at
   * request(): once placed, what shows the release can link to it.
   */
  async setOrigin(id: string, origin: Partial<ChangeOrigin>): Promise<void> {
    const record = await this.o.store.updateChangeOrigin(id, origin, this.o.clock.now());
    if (record) await this.announce([toChange(record, [])]);
  }

  /** The requester confirms a pending change (or an approved one whose apply was not started). */
  confirm(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(this.confirmClick(click));
  }

  /** An approver approves; when enough distinct approvers have, the change is applied at once. */
  approve(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(this.approveClick(click));
  }

  /** An approver rejects: the change is closed and will not be applied. */
  reject(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(this.rejectClick(click));
  }

  /** The requester (or an approver) withdraws a change that has not started applying. */
  cancel(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(this.cancelClick(click));
  }

  private async confirmClick({
    changeId,
    user,
    channel,
    team,
    onClaimed,
  }: ClickInput): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    if (c.status === 'awaiting_approval') {
      return { kind: 'refused', message: 'This change needs approval before it can be applied.', change: c };
    }
    const decision = await this.o.policy.authorizeConfirm(this.clickQuestion(c, { user, channel, team }));
    if (!decision.allowed) return this.refuse(c, user, 'confirm', decision.reason, team);
    if (c.status === 'approved') {
      // Left approved by an apply that never claimed it: its approvers may have left their group since.
      const stillApproved = await this.recountApproved(c, user, team);
      if (stillApproved) return stillApproved;
    }
    return this.claimAndApply(c, user, APPLYABLE_BY_CONFIRM, 'confirm', team, onClaimed);
  }

  private async approveClick({
    changeId,
    user,
    channel,
    team,
    onClaimed,
  }: ClickInput): Promise<ClickOutcome> {
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
    const decision = await this.judgeApproval(c, user, channel, team);
    if (!decision.allowed) return this.refuse(c, user, 'approve', decision.reason, team);
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
        workspace: team,
      });
    // "Enough approvals?" is decided on the approvals as stored after our insert: of two approvers
    // clicking at once, the later insert sees both, so at least one click goes on to apply, and the
    // atomic transition below lets exactly one of them.
    const fresh = (await this.get(changeId)) as Change;
    const after = await this.judgeApproval(fresh, user, channel, team);
    if (!after.allowed) return this.refuse(fresh, user, 'approve', after.reason);
    if (!after.satisfied) {
      return {
        kind: 'approval_recorded',
        change: fresh,
        count: after.count ?? 0,
        required: after.required ?? 0,
        ...(added ? {} : { repeat: true }),
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
    return this.claimAndApply(
      toChange(approved, fresh.approvals),
      user,
      ['approved'],
      'approve',
      team,
      onClaimed,
    );
  }

  private async rejectClick({ changeId, user, channel, team, reason }: ClickInput): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    const decision = await this.judgeApproval(c, user, channel, team);
    if (!decision.allowed || c.status !== 'awaiting_approval') {
      return this.refuse(
        c,
        user,
        'reject',
        decision.allowed ? 'Only changes awaiting approval can be rejected.' : decision.reason,
        team,
      );
    }
    const now = this.o.clock.now();
    await this.o.store.addApproval({
      changeId,
      userId: user,
      decision: 'reject',
      at: now,
      ...(reason ? { comment: reason } : {}),
    });
    return this.close(c, user, ['awaiting_approval', 'approved'], 'rejected', team, reason);
  }

  private async cancelClick({ changeId, user, channel, team }: ClickInput): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    const decision = await this.o.policy.authorizeCancel(this.clickQuestion(c, { user, channel, team }));
    if (!decision.allowed) return this.refuse(c, user, 'cancel', decision.reason, team);
    return this.close(c, user, ['pending', 'awaiting_approval', 'approved'], 'cancelled', team);
  }

  /** Expires every open change past its deadline; returns them so their messages can be updated. */
  async expireDue(): Promise<Change[]> {
    const now = this.o.clock.now();
    const expired = await this.o.store.expireChanges(now);
    for (const record of expired) {
      await this.audit({
        at: now,
        changeId: record.id,
        actor: 'harbormaster',
        action: 'expire',
        operation: record.operation,
        origin: record.origin,
      });
    }
    const out = await this.withApprovals(expired);
    await this.announce(out);
    return out;
  }

  /** Changes awaiting approval that `user` (of workspace `team`) may approve now (for "/harbor approvals"). */
  async approvableBy(user: string, channel: string, team: string): Promise<Change[]> {
    const now = this.o.clock.now();
    const records = await this.o.store.listChanges({ status: ['awaiting_approval'], limit: 200 });
    const open = await this.withApprovals(records.filter((record) => record.expiresAt > now));
    const out: Change[] = [];
    for (const c of open) {
      const decision = await this.judgeApproval(c, user, channel, team);
      if (decision.allowed && !c.approvals.some((a) => a.userId === user)) out.push(c);
    }
    return out;
  }

  /** The latest `limit` changes `user` requested, newest first, whatever their status (for the Home tab). */
  async requestsOf(user: string, limit: number): Promise<Change[]> {
    const records = await this.o.store.listChanges({ requester: user, limit: 500 });
    const newest = [...records].sort((a, b) => b.createdAt - a.createdAt).slice(0, limit);
    return this.withApprovals(newest);
  }

  /**
   * Resolves changes left `applying` by a process that died, and changes whose
   * apply ended unconfirmed: reads the API to learn whether the change happened
   * (never re-applies) and records what the read shows. A change whose apply
   * is alive (its lease held and renewed, on this process or another) is left
   * alone. Returns the changes whose message must be redrawn.
   */
  async recoverInterrupted(): Promise<Change[]> {
    const out: Change[] = await this.storePending();
    const records = await this.o.store.listChanges({ status: ['applying'], limit: 500 });
    for (const record of records) {
      const lease = await holdApplyLease(
        this.leaseOptions(),
        record.id,
        uniqueOwner(this.o.replicaId, 'recover'),
      );
      if (!lease) continue;
      try {
        // Re-read under the lease: the apply may have finished between the listing and now.
        const current = await this.o.store.getChange(record.id);
        if (current?.status !== 'applying') continue;
        const resolved = await this.recoverOne(current);
        if (resolved) out.push(resolved);
      } finally {
        await lease.release();
      }
    }
    await this.announce(out);
    return out;
  }

  /** Records that the change's message now shows its status (the Slack layer calls it after a rewrite). */
  async markDrawn(change: Change): Promise<void> {
    await this.o.store.markDrawn(change.id, change.status);
  }

  /**
   * Finished changes whose message does not show it (a rewrite lost to a
   * Slack outage left live buttons): housekeeping redraws them. Their
   * releases are announced again, as the same outage may have left a release
   * message behind too.
   */
  async undrawnFinal(limit = 50): Promise<Change[]> {
    const records = await this.o.store.listChanges({ status: FINAL_STATUSES, undrawn: true, limit });
    const out = await this.withApprovals(records);
    await this.announce(out);
    return out;
  }

  /**
   * Looks again at promotions applied but not yet visible in their target
   * branch (housekeeping); returns those whose record changed (now Promoted, or
   * never appeared after the settle window), for their messages to be redrawn.
   */
  async recheckUnverified(limit = 50): Promise<Change[]> {
    const now = this.o.clock.now();
    const records = await this.o.store.listChanges({
      status: ['succeeded'],
      createdAfter: now - 4 * PROMOTION_SETTLE_MS,
      limit,
    });
    const out: Change[] = [];
    for (const change of (await this.withApprovals(records)).filter(awaitsVisibility)) {
      const result = await recheckPromotion(this.o.client, change, now).catch((error: unknown) => {
        this.o.logger.warn('could not recheck a promotion', { changeId: change.id, error });
        return undefined;
      });
      if (!result) continue;
      // The applied time stays as it was: the record learns what became of it, nothing more.
      const updated = await this.o.store.transitionChange(
        change.id,
        ['succeeded'],
        'succeeded',
        { result },
        { now: change.updatedAt, expectVersion: change.version },
      );
      if (updated) out.push(toChange(updated, change.approvals));
    }
    return out;
  }

  /**
   * Records the state a follow-up saw as the result's State line, so the
   * change's own message shows the last known state, not the one at apply.
   * Returns the updated change, or undefined when nothing changed.
   */
  async noteState(change: Change, state: string): Promise<Change | undefined> {
    const result = change.result;
    if (change.status !== 'succeeded' || !result) return undefined;
    const line = { label: 'State', value: state };
    const known = result.lines.some((l) => l.label === 'State');
    if (result.lines.some((l) => l.label === 'State' && l.value === state)) return undefined;
    const lines = known ? result.lines.map((l) => (l.label === 'State' ? line : l)) : [...result.lines, line];
    const updated = await this.o.store.transitionChange(
      change.id,
      ['succeeded'],
      'succeeded',
      { result: { ...result, lines } },
      { now: change.updatedAt },
    );
    return updated ? toChange(updated, change.approvals) : undefined;
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

  /** Tells the listeners of each release among `changes` that what it shows changed. */
  private async announce(changes: readonly Change[]): Promise<void> {
    const releaseIds = new Set(changes.flatMap((c) => (c.origin.releaseId ? [c.origin.releaseId] : [])));
    for (const releaseId of releaseIds) await this.releaseEvents.emit({ releaseId });
  }

  /**
   * Announces a click's change unless the click moved nothing: a refused click,
   * or a stale one on a change still applying (a redraw then could land after
   * the applying click's own). A stale click on a finished change is announced,
   * which repairs a release message an outage left behind.
   */
  private async announced(click: Promise<ClickOutcome>): Promise<ClickOutcome> {
    const outcome = await click;
    const moved =
      outcome.kind === 'stale' ? FINAL_STATUSES.includes(outcome.change.status) : outcome.kind !== 'refused';
    if (moved) await this.announce([outcome.change]);
    return outcome;
  }

  /** The records as Changes, their approvals read in one query for all of them. */
  private async withApprovals(records: readonly ChangeRecord[]): Promise<Change[]> {
    if (records.length === 0) return [];
    const approvals = await this.o.store.listApprovalsFor(records.map((r) => r.id));
    return records.map((record) => toChange(record, approvals.get(record.id) ?? []));
  }

  private async recoverOne(record: ChangeRecord): Promise<Change | undefined> {
    const change = toChange(record, await this.o.store.listApprovals(record.id));
    const module = operationModule(change.operation);
    const ctx = this.context(change, 'recover');
    if (isUnconfirmed(change)) {
      const settled = await recheckUnconfirmed(
        change,
        () => module.verify(ctx, this.applyInput(change)),
        this.o.clock.now(),
      );
      return settled ? this.record(change, settled, this.o.replicaId, 'recover') : undefined;
    }
    let settled: Settlement;
    try {
      settled = await settleInterruptedApply(
        change,
        () => module.verify(ctx, this.applyInput(change)),
        this.o.clock.now(),
      );
    } catch (err) {
      // The API could not tell us; leave it applying so a later sweep tries again.
      this.o.logger.warn('recovery could not verify change', { changeId: change.id, error: err });
      return undefined;
    }
    return this.record(change, settled, this.o.replicaId, 'recover');
  }

  private async claimAndApply(
    c: Change,
    user: string,
    from: readonly ChangeStatus[],
    action: 'confirm' | 'approve',
    team?: string,
    onClaimed?: (change: Change) => void,
  ): Promise<ClickOutcome> {
    // The lease comes first: once the change reads `applying`, its lease is already held, so a
    // recovery sweep listing it can never take it from a live apply.
    const owner = uniqueOwner(this.o.replicaId, 'apply');
    const lease = await holdApplyLease(this.leaseOptions(), c.id, owner);
    if (!lease) return this.explainBusy(c.id);
    const now = this.o.clock.now();
    let claimed: ChangeRecord | undefined;
    try {
      claimed = await this.o.store.transitionChange(
        c.id,
        from,
        'applying',
        { confirmedBy: user, applyingOwner: owner, applyingSince: now },
        { now },
      );
    } catch (err) {
      await lease.release();
      throw err;
    }
    if (!claimed) {
      await lease.release();
      return this.explainStale(c.id);
    }
    if (action === 'confirm') {
      await this.audit({
        at: now,
        changeId: c.id,
        actor: user,
        action: 'confirm',
        operation: c.operation,
        origin: c.origin,
        workspace: team,
      });
    }
    const applying = toChange(claimed, c.approvals);
    try {
      onClaimed?.(applying);
    } catch (err) {
      this.o.logger.warn('could not announce an apply', { changeId: c.id, error: err });
    }
    try {
      return await this.runApply(applying, user);
    } finally {
      await lease.release();
    }
  }

  private async runApply(change: Change, user: string): Promise<ClickOutcome> {
    const module = operationModule(change.operation);
    const ctx = this.context(change, 'apply', user);
    let settled: Settlement;
    try {
      settled = { status: 'succeeded', result: await module.apply(ctx, this.applyInput(change)) };
    } catch (err) {
      const failure = describeFailure(err, this.o.logger, { changeId: change.id });
      // A write that got no clear answer may still have happened: read the API before saying anything.
      settled = await settleFailedApply(
        change,
        err,
        failure,
        () => module.verify(ctx, this.applyInput(change)),
        this.o.clock.now(),
        this.o.logger,
      );
    }
    let final: Change;
    try {
      final = (await this.record(change, settled, user, 'apply')) ?? change;
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      // The API has answered; only the store failed. Say what happened, and store it later.
      this.o.logger.error('could not record an apply; housekeeping will', {
        changeId: change.id,
        error: err,
      });
      this.pendingRecords.hold({ change, settled, actor: user, action: 'apply' });
      final = asSettled(change, settled, this.o.clock.now());
    }
    if (settled.status === 'succeeded') return { kind: 'applied', change: final };
    if (settled.status === 'failed') return { kind: 'failed', change: final };
    return { kind: 'unconfirmed', change: final };
  }

  /**
   * Stores the settlements this process could not store when its applies
   * ended; returns the changes they settled (their messages must be redrawn).
   * One the store still refuses stays held for the next pass.
   */
  private async storePending(): Promise<Change[]> {
    const out: Change[] = [];
    for (const held of this.pendingRecords.list()) {
      try {
        const stored = await this.record(held.change, held.settled, held.actor, held.action);
        this.pendingRecords.drop(held.change.id);
        // Undefined: recovery elsewhere settled it first; its own pass redraws it.
        if (stored) out.push(stored);
      } catch (err) {
        this.o.logger.warn('a pending apply record is still not stored', {
          changeId: held.change.id,
          error: err,
        });
      }
    }
    return out;
  }

  /**
   * Stores a settlement of an applying change and audits it. An unconfirmed
   * one stays `applying` (its message says so) for housekeeping to check again.
   * Undefined when the change had already left `applying` (someone else settled it).
   */
  private async record(
    change: Change,
    settled: Settlement,
    actor: string,
    action: 'apply' | 'recover',
  ): Promise<Change | undefined> {
    const now = this.o.clock.now();
    const done =
      settled.status === 'unconfirmed'
        ? await this.o.store.transitionChange(
            change.id,
            ['applying'],
            'applying',
            { error: settled.failure, applyingOwner: undefined },
            { now },
          )
        : await this.o.store.transitionChange(
            change.id,
            ['applying'],
            settled.status,
            settled.status === 'succeeded'
              ? { result: settled.result, error: undefined, applyingOwner: undefined }
              : { error: settled.failure, applyingOwner: undefined },
            { now },
          );
    await this.audit({
      at: now,
      changeId: change.id,
      actor,
      action,
      operation: change.operation,
      origin: change.origin,
      outcome: settled.status,
      detail:
        settled.status === 'succeeded'
          ? { summary: settled.result.summary, lines: settled.result.lines }
          : settled.failure,
    });
    return done ? toChange(done, change.approvals) : undefined;
  }

  private leaseOptions() {
    return { store: this.o.store, clock: this.o.clock, logger: this.o.logger, ttlMs: this.applyLeaseMs };
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
      return { kind: 'done', outcome: { kind: 'stale', reason: staleReason(change), change } };
    }
    return { kind: 'ok', change };
  }

  /** Another click holds the apply lease: it may not have moved the change to applying yet. */
  private async explainBusy(id: string): Promise<ClickOutcome> {
    const change = (await this.get(id)) as Change;
    const reason = EXPIRABLE_STATUSES.includes(change.status)
      ? { kind: 'busy' as const }
      : staleReason(change);
    return { kind: 'stale', reason, change };
  }

  private async explainStale(id: string): Promise<ClickOutcome> {
    const change = (await this.get(id)) as Change;
    return { kind: 'stale', reason: staleReason(change), change };
  }

  private async refuse(
    c: Change,
    user: string,
    action: string,
    reason: string,
    team?: string,
  ): Promise<ClickOutcome> {
    await this.audit({
      at: this.o.clock.now(),
      changeId: c.id,
      actor: user,
      action: `${action}_refused`,
      operation: c.operation,
      origin: c.origin,
      workspace: team,
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
    team?: string,
    reason?: string,
  ): Promise<ClickOutcome> {
    const now = this.o.clock.now();
    // Who closed it is `by`; renderers name them and write the words.
    const failure: ChangeFailure =
      kind === 'rejected' ? { kind, by: user, ...(reason ? { reason } : {}) } : { kind, by: user };
    const done = await this.o.store.transitionChange(c.id, from, 'cancelled', { error: failure }, { now });
    if (!done) return this.explainStale(c.id);
    await this.audit({
      at: now,
      changeId: c.id,
      actor: user,
      action: kind === 'rejected' ? 'reject' : 'cancel',
      operation: c.operation,
      origin: c.origin,
      workspace: team,
      ...(reason ? { detail: { reason } } : {}),
    });
    return { kind, change: (await this.get(c.id)) as Change };
  }

  /**
   * Recounts an approved change's approvals with today's membership. When
   * they no longer suffice the change goes back to awaiting approval and the
   * confirm is refused (the outcome is returned); undefined when it may apply.
   */
  private async recountApproved(c: Change, user: string, team?: string): Promise<ClickOutcome | undefined> {
    const recount = await this.o.policy.recountApprovals({
      team: team ?? c.origin.workspace,
      workspace: c.origin.workspace,
      requester: c.requester,
      operation: c.operation,
      target: c.target,
      approvals: c.approvals,
      now: this.o.clock.now(),
      expiresAt: c.expiresAt,
    });
    if (recount.allowed && recount.satisfied) return undefined;
    const reopened = await this.o.store.transitionChange(
      c.id,
      ['approved'],
      'awaiting_approval',
      {},
      { now: this.o.clock.now() },
    );
    if (!reopened) return this.explainStale(c.id);
    const fresh = (await this.get(c.id)) as Change;
    const reason = recount.allowed
      ? `Its approvals no longer suffice: ${recount.count ?? 0} of ${recount.required ?? 0} approvals come from people who may approve it today, so it needs approval again.`
      : recount.reason;
    return this.refuse(fresh, user, 'confirm', reason, team);
  }

  /** The policy's verdict on `user` approving (or rejecting) `c` now. */
  private judgeApproval(c: Change, user: string, channel: string, team: string) {
    return this.o.policy.authorizeApproval({
      ...this.clickQuestion(c, { user, channel, team }),
      approvals: c.approvals,
      now: this.o.clock.now(),
      expiresAt: c.expiresAt,
    });
  }

  /** The policy question every click on `c` asks: who clicks, from which channel and workspace, on what. */
  private clickQuestion(
    c: Change,
    clicker: { user: string; channel: string; team: string },
  ): PolicyClickInput {
    return {
      ...clicker,
      workspace: c.origin.workspace,
      requester: c.requester,
      operation: c.operation,
      target: c.target,
    };
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
    return {
      client,
      clock: this.o.clock,
      logger: this.o.logger,
      follow: this.followOptions,
      environments: this.o.environments ?? [],
    };
  }

  private async audit(entry: {
    at: number;
    actor: string;
    action: string;
    changeId?: string;
    operation?: string;
    params?: unknown;
    origin?: ChangeOrigin;
    /** The actor's workspace when it is not the change's (a click from a shared channel). */
    workspace?: string;
    outcome?: string;
    detail?: unknown;
  }): Promise<void> {
    const { origin, workspace, ...rest } = entry;
    try {
      await this.o.store.appendAudit({
        ...rest,
        workspace: workspace ?? origin?.workspace,
        channel: origin?.channel,
      });
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

async function* emptyFollow(): AsyncIterable<FollowEvent> {}
