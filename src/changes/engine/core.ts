/**
 * What every part of the change engine shares: its options, reading a change
 * with its approvals, the audit, the context operations run in, the answers
 * for a click that comes too late, and telling releases and whoever shows
 * changes that a change moved.
 */
import { randomUUID } from 'node:crypto';
import { blockingFreeze, type FreezeSources } from '../../freezes/in-force.js';
import type { Freeze } from '../../freezes/types.js';
import { freezeRefusal } from '../../freezes/words.js';
import { PLAIN_NAMES, type PolicyNames } from '../../policy/words.js';
import { Events } from '../../runtime/events.js';
import {
  type ChangeOrigin,
  type ChangeRecord,
  EXPIRABLE_STATUSES,
  type TransactionStore,
} from '../../store/types.js';
import { DEFAULT_APPLY_LEASE_MS } from '../apply-lease.js';
import { auditedClient } from '../audited-client.js';
import { type Change, type ClickOutcome, toChange } from '../change.js';
import { type ChangeEvent, createChangeEvents } from '../events.js';
import { freezeScope } from '../freeze-scope.js';
import type { OperationContext } from '../operation.js';
import { PendingRecords } from '../pending-records.js';
import { ChangePublisher } from '../publish.js';
import { DEFAULT_ROLLBACK_WINDOW_MS, storeLedger } from '../rollback/store-ledger.js';
import { DEFAULT_SCHEDULE_GRACE_MS, DEFAULT_SCHEDULE_MAX_DAYS } from '../schedule/when.js';
import { staleReason } from '../stale-reason.js';
import type { ChangeEngineOptions } from './options.js';

/** One audit row as the engine writes it; the row's workspace and channel come from `origin` unless `workspace` says otherwise. */
export interface AuditEntry {
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
}

export class EngineCore {
  readonly newId: () => string;
  readonly applyLeaseMs: number;
  readonly followOptions: { pollMs: number; timeoutMs: number };
  /** How long after its apply a follow-up nobody runs is resumed (ChangeEngineOptions.follow). */
  readonly resumeFollowAfterMs: number;
  readonly rollbackWindowMs: number;
  /** How far ahead a change may be scheduled, and how late a scheduled change may still apply. */
  readonly schedule: { maxAheadMs: number; graceMs: number };
  /** How freeze refusals write people and instants. */
  readonly names: PolicyNames;
  /** Settlements this process could not store when their applies ended (store down); housekeeping stores them. */
  readonly pendingRecords = new PendingRecords();
  /** Where what moved is published: the outbox, then this replica's listeners (changes/publish.ts). */
  readonly publisher: ChangePublisher;

  constructor(readonly o: ChangeEngineOptions) {
    this.newId = o.newId ?? randomUUID;
    this.publisher = new ChangePublisher({
      store: o.store,
      changeEvents: o.changeEvents ?? createChangeEvents(),
      releaseEvents: o.releaseEvents ?? new Events(),
      replicaId: o.replicaId,
      clock: o.clock,
      logger: o.logger,
    });
    this.applyLeaseMs = o.applyLeaseMs ?? DEFAULT_APPLY_LEASE_MS;
    this.rollbackWindowMs = o.rollbackWindowMs ?? DEFAULT_ROLLBACK_WINDOW_MS;
    this.names = o.names ?? PLAIN_NAMES;
    this.schedule = {
      maxAheadMs: o.schedule?.maxAheadMs ?? DEFAULT_SCHEDULE_MAX_DAYS * 86_400_000,
      graceMs: o.schedule?.graceMs ?? DEFAULT_SCHEDULE_GRACE_MS,
    };
    this.followOptions = { pollMs: o.follow?.pollMs ?? 2_000, timeoutMs: o.follow?.timeoutMs ?? 5 * 60_000 };
    this.resumeFollowAfterMs = o.follow?.resumeAfterMs ?? this.applyLeaseMs;
  }

  now(): number {
    return this.o.clock.now();
  }

  /** The change with its approvals, or undefined. */
  async get(id: string): Promise<Change | undefined> {
    const record = await this.o.store.getChange(id);
    return record ? toChange(record, await this.o.store.listApprovals(id)) : undefined;
  }

  /** The records as Changes, their approvals read in one query for all of them. */
  async withApprovals(records: readonly ChangeRecord[]): Promise<Change[]> {
    if (records.length === 0) return [];
    const approvals = await this.o.store.listApprovalsFor(records.map((r) => r.id));
    return records.map((record) => toChange(record, approvals.get(record.id) ?? []));
  }

  /** The records as Changes with their approvals, read inside the transaction that wrote them. */
  async withApprovalsIn(tx: TransactionStore, records: readonly ChangeRecord[]): Promise<Change[]> {
    if (records.length === 0) return [];
    const approvals = await tx.listApprovalsFor(records.map((r) => r.id));
    return records.map((record) => toChange(record, approvals.get(record.id) ?? []));
  }

  /**
   * Publishes an event about what is committed already or about nothing
   * written (a click that wrote nothing, a follow-up's step): to the outbox, then this replica's listeners, never
   * waited for (changes/publish.ts). Resolves once the outbox row is written.
   */
  publish(event: ChangeEvent): Promise<void> {
    return this.publisher.publish(event);
  }

  /**
   * What housekeeping-like loops moved (scheduled applies, guarded rollouts),
   * published as a `closed` event after their commits; nobody waits for it.
   * Kept for the loops written against the earlier in-process events; a new
   * write should commit its event with it (`write`, `closing`).
   */
  publishMoved(changes: readonly Change[]): void {
    if (changes.length > 0) void this.publish({ kind: 'closed', changes: [...changes] });
  }

  /**
   * Writes a change and the event telling of it in one transaction
   * (`eventOf` the written record; none when nothing was written), then tells
   * this replica's listeners without waiting for them.
   */
  write<T>(
    work: (tx: TransactionStore) => Promise<T>,
    eventOf: (written: T, tx: TransactionStore) => Promise<ChangeEvent | undefined>,
  ): Promise<T> {
    return this.publisher.write(work, eventOf);
  }

  /** One change's transition with a `closed` event for it in the same transaction. */
  closing(
    write: (tx: TransactionStore) => Promise<ChangeRecord | undefined>,
    approvals: Change['approvals'],
    ownOnly = false,
  ): Promise<ChangeRecord | undefined> {
    return this.write(write, async (record) =>
      record
        ? { kind: 'closed', changes: [toChange(record, approvals)], ...(ownOnly ? { ownOnly: true } : {}) }
        : undefined,
    );
  }

  /**
   * Counts `c`'s approvals again with today's group membership (a Confirm of
   * an approved change, a scheduled change at its time): whether they still
   * let it apply. `team` is the clicker's workspace, when a click asks.
   */
  recount(c: Change, team?: string) {
    return this.o.policy.recountApprovals({
      team: team ?? c.origin.workspace,
      workspace: c.origin.workspace,
      requester: c.requester,
      operation: c.judgeBy ?? c.operation,
      target: c.target,
      ...(c.breakGlass ? { breakGlass: true } : {}),
      approvals: c.approvals,
      now: this.now(),
      expiresAt: c.expiresAt,
    });
  }

  async audit(entry: AuditEntry): Promise<void> {
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

  /** Audits a refused click and answers it. */
  async refuse(
    c: Change,
    user: string,
    action: string,
    reason: string,
    team?: string,
  ): Promise<ClickOutcome> {
    await this.audit({
      at: this.now(),
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

  /** Someone else moved the change first: say what became of it. */
  async explainStale(id: string): Promise<ClickOutcome> {
    const change = (await this.get(id)) as Change;
    return { kind: 'stale', reason: staleReason(change), change };
  }

  /** Another click holds the apply lease: it may not have moved the change to applying yet. */
  async explainBusy(id: string): Promise<ClickOutcome> {
    const change = (await this.get(id)) as Change;
    const reason = EXPIRABLE_STATUSES.includes(change.status)
      ? { kind: 'busy' as const, ...(change.status === 'pending' ? { by: change.requester } : {}) }
      : staleReason(change);
    return { kind: 'stale', reason, change };
  }

  /** What an operation's apply, verify and follow get from the stored change. */
  applyInput(change: Change) {
    return {
      request: change.request,
      preview: change.preview,
      applyToken: change.applyToken,
      changeId: change.id,
    };
  }

  /** The context an operation runs in; with a change, its API calls are audited. */
  context(change?: Change, phase?: string, actor?: string): OperationContext {
    const client = change
      ? auditedClient(this.o.client, (entry) =>
          this.audit({
            ...entry,
            at: this.now(),
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
      ledger: storeLedger({
        store: this.o.store,
        windowMs: this.rollbackWindowMs,
        now: () => this.now(),
        auditRolledBack: async (originalId, rollbackId) => {
          await this.audit({
            at: this.now(),
            changeId: originalId,
            actor: actor ?? this.o.replicaId,
            action: 'rolled_back',
            operation: change?.operation,
            origin: change?.origin,
            detail: { rollbackId },
          });
          // The original's message now says it was rolled back: its owner redraws it.
          const original = await this.get(originalId);
          if (original) await this.publish({ kind: 'closed', changes: [original], ownOnly: true });
        },
      }),
    };
  }

  /** Where freezes come from: people's in the store, the policy's windows. */
  freezeSources(): FreezeSources {
    return { store: this.o.store, windows: this.o.policy.freezeWindows };
  }

  /**
   * Why a freeze stops `c` now, in words; undefined when none does or `c`
   * breaks it by the break-glass approvers' leave. The one freeze check of
   * a change once requested: Confirm, Approve and the apply ask it (a
   * scheduled change's apply asks it too). A scheduled change not yet due is
   * judged at its time: a freeze then would stop it.
   */
  async freezeRefusal(c: Change): Promise<string | undefined> {
    const freeze = await this.blockingFreeze(c);
    return freeze && freezeRefusal(freeze, this.names, this.o.policy.breakGlass !== undefined);
  }

  /** The freeze that stops `c` (see freezeRefusal), as data; undefined when none does. */
  async blockingFreeze(c: Change): Promise<Freeze | undefined> {
    if (c.breakGlass) return undefined;
    return blockingFreeze(
      this.freezeSources(),
      freezeScope(c.operation, c.request, c.target, c.preview),
      Math.max(this.now(), c.scheduledAt ?? 0),
    );
  }

  leaseOptions() {
    return { store: this.o.store, clock: this.o.clock, logger: this.o.logger, ttlMs: this.applyLeaseMs };
  }
}
