/**
 * What housekeeping asks of the engine: expire what is past its deadline,
 * resolve applies a dead process left behind (reading the API, never
 * re-applying), resume follow-ups a stopped replica cut short, and look
 * again at promotions not yet visible. What each moves commits with its
 * `closed` event (the outbox) and nobody waits for it to be drawn: these
 * clocks never run at Slack's pace (issue 39.4). Follow-ups run here, in the
 * domain, on any replica (engine/follow-ups.ts).
 */
import type { ChangeRecord } from '../../store/types.js';
import { holdApplyLease, uniqueOwner } from '../apply-lease.js';
import { type Change, isUnconfirmed, toChange } from '../change.js';
import { operationModule } from '../operations/index.js';
import { awaitsVisibility, PROMOTION_SETTLE_MS, recheckPromotion } from '../promotion-recheck.js';
import { settleInterruptedApply } from '../settle-interrupted.js';
import { recheckUnconfirmed, type Settlement } from '../settle-outcome.js';
import type { Applier } from './apply.js';
import type { EngineCore } from './core.js';
import type { FollowUps } from './follow-ups.js';

/** How long after its apply a change's cut-short follow-up is still resumed. */
export const RESUME_WINDOW_MS = 60 * 60_000;

/** The most recent changes one pass looks through for a follow-up to resume. */
const RESUME_LIMIT = 200;

export class Recovery {
  constructor(
    private readonly core: EngineCore,
    private readonly applier: Applier,
    private readonly followUps: FollowUps,
  ) {}

  /** Expires every open change past its deadline; returns them so their messages can be updated. */
  async expireDue(): Promise<Change[]> {
    const now = this.core.now();
    let out: Change[] = [];
    // The expiry and its `closed` event commit together: whoever shows the changes learns of it
    // from the outbox, at its own pace.
    await this.core.write(
      (tx) => tx.expireChanges(now),
      async (records, tx) => {
        out = await this.core.withApprovalsIn(tx, records);
        return out.length > 0 ? { kind: 'closed', changes: out } : undefined;
      },
    );
    for (const record of out) {
      await this.core.audit({
        at: now,
        changeId: record.id,
        actor: 'harbormaster',
        action: 'expire',
        operation: record.operation,
        origin: record.origin,
      });
    }
    return out;
  }

  /**
   * Resolves changes left `applying` by a process that died, and changes whose
   * apply ended unconfirmed: reads the API to learn whether the change happened
   * (never re-applies) and records what the read shows. A change whose apply
   * is alive (its lease held and renewed, on this process or another) is left
   * alone. Returns the changes whose message must be redrawn.
   */
  async recoverInterrupted(): Promise<Change[]> {
    const { store, replicaId } = this.core.o;
    // Settlements stored late were applied clicks, followed up then (one that the store's outage
    // stopped is still due, and resumed by resumeFollowUps).
    const late = await this.applier.storePending();
    if (late.length > 0) await this.core.publish({ kind: 'closed', changes: late });
    const out: Change[] = [...late];
    const landed: Change[] = [];
    const records = await store.listChanges({ status: ['applying'], limit: 500 });
    for (const record of records) {
      const lease = await holdApplyLease(
        this.core.leaseOptions(),
        record.id,
        uniqueOwner(replicaId, 'recover'),
      );
      if (!lease) continue;
      try {
        // Re-read under the lease: the apply may have finished between the listing and now.
        const current = await store.getChange(record.id);
        if (current?.status !== 'applying') continue;
        const resolved = await this.recoverOne(current);
        if (resolved) out.push(resolved);
        // Only the pass whose transition stored it gets here, so one replica follows it up.
        if (resolved?.status === 'succeeded') landed.push(resolved);
      } finally {
        await lease.release();
      }
    }
    if (this.core.o.runFollowUps) for (const change of landed) this.followUps.start(change);
    return out;
  }

  /**
   * Applied changes whose follow-up is still due though nobody runs it (its
   * replica stopped mid-way: follow-due.ts), applied at least
   * `resumeFollowAfterMs` ago (a click's own follow-up has taken its lease by then) and within
   * RESUME_WINDOW_MS. They are told as `follow` events; the follow-up lease
   * decides which replica runs each, and skips one that still runs.
   */
  async resumeFollowUps(): Promise<Change[]> {
    const now = this.core.now();
    const records = await this.core.o.store.listChanges({
      status: ['succeeded'],
      followDue: true,
      appliedAfter: now - RESUME_WINDOW_MS,
      limit: RESUME_LIMIT,
    });
    const due = records.filter(
      (r) => r.appliedAt !== undefined && r.appliedAt <= now - this.core.resumeFollowAfterMs,
    );
    const out = await this.core.withApprovals(due);
    // The follow-up lease decides which replica runs each, and skips one that still runs.
    if (this.core.o.runFollowUps) for (const change of out) this.followUps.start(change, true);
    return out;
  }

  /**
   * Looks again at promotions applied but not yet visible in their target
   * branch; returns those whose record changed (now Promoted, or never
   * appeared after the settle window), for their messages to be redrawn.
   */
  async recheckUnverified(limit: number): Promise<Change[]> {
    const { store, client, logger } = this.core.o;
    const now = this.core.now();
    const records = await store.listChanges({
      status: ['succeeded'],
      createdAfter: now - 4 * PROMOTION_SETTLE_MS,
      limit,
    });
    const out: Change[] = [];
    for (const change of (await this.core.withApprovals(records)).filter(awaitsVisibility)) {
      const result = await recheckPromotion(client, change, now).catch((error: unknown) => {
        logger.warn('could not recheck a promotion', { changeId: change.id, error });
        return undefined;
      });
      if (!result) continue;
      // The applied time stays as it was: the record learns what became of it, nothing more.
      const updated = await this.core.closing(
        (tx) =>
          tx.transitionChange(
            change.id,
            ['succeeded'],
            'succeeded',
            { result },
            { now: change.updatedAt, expectVersion: change.version },
          ),
        change.approvals,
        true,
      );
      if (updated) out.push(toChange(updated, change.approvals));
    }
    return out;
  }

  private async recoverOne(record: ChangeRecord): Promise<Change | undefined> {
    const { replicaId, logger, store } = this.core.o;
    const change = toChange(record, await store.listApprovals(record.id));
    const module = operationModule(change.operation);
    const ctx = this.core.context(change, 'recover');
    const verify = () => module.verify(ctx, this.core.applyInput(change));
    if (isUnconfirmed(change)) {
      const settled = await recheckUnconfirmed(change, verify, this.core.now());
      return settled ? this.applier.record(change, settled, replicaId, 'recover') : undefined;
    }
    let settled: Settlement;
    try {
      settled = await settleInterruptedApply(change, verify, this.core.now());
    } catch (err) {
      // The API could not tell us; leave it applying so a later sweep tries again.
      logger.warn('recovery could not verify change', { changeId: change.id, error: err });
      return undefined;
    }
    return this.applier.record(change, settled, replicaId, 'recover');
  }
}
