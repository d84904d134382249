/**
 * Applying a claimed change: the apply lease first, the atomic move to
 * `applying`, the operation's write, and the settlement recorded (or held for
 * housekeeping when the store fails after the API answered).
 */
import { StoreError } from '../../store/errors.js';
import type { ChangeRecord, ChangeStatus, TransactionStore } from '../../store/types.js';
import { holdApplyLease, uniqueOwner } from '../apply-lease.js';
import { type Change, type ClickOutcome, toChange } from '../change.js';
import { describeFailure } from '../describe-failure.js';
import { followStateAtApply } from '../follow-due.js';
import type { Result } from '../operation.js';
import { operationModule } from '../operations/index.js';
import { asSettled } from '../pending-records.js';
import type { Undo } from '../rollback/undo.js';
import { type Settlement, settleFailedApply } from '../settle-outcome.js';
import { type ClickTold, clickedEvent } from './click-told.js';
import type { EngineCore } from './core.js';

export class Applier {
  constructor(private readonly core: EngineCore) {}

  /**
   * Takes the apply lease, moves the change from one of `from` to applying, and applies it. A
   * click's `told` commits its `clicked` event with the settlement (click-told.ts).
   */
  async claimAndApply(
    c: Change,
    user: string,
    from: readonly ChangeStatus[],
    action: 'confirm' | 'approve' | 'schedule',
    team?: string,
    told?: ClickTold,
  ): Promise<ClickOutcome> {
    const { replicaId } = this.core.o;
    // The lease comes first: once the change reads `applying`, its lease is already held, so a
    // recovery sweep listing it can never take it from a live apply.
    const owner = uniqueOwner(replicaId, 'apply');
    const lease = await holdApplyLease(this.core.leaseOptions(), c.id, owner);
    if (!lease) return this.core.explainBusy(c.id);
    // The last freeze check before the write, with the lease held: a freeze put since the click stops it
    // here, and the change stays as it was (pending or approved) for after the freeze.
    let frozen: string | undefined;
    try {
      frozen = await this.core.freezeRefusal(c);
    } catch (err) {
      await lease.release();
      throw err;
    }
    if (frozen) {
      await lease.release();
      return this.core.refuse(c, user, action, frozen, team);
    }
    const now = this.core.now();
    let claimed: ChangeRecord | undefined;
    try {
      // Its message shows "Applying…" while the write runs: the `claimed` event commits with the claim.
      claimed = await this.core.write(
        (tx) =>
          tx.transitionChange(
            c.id,
            from,
            'applying',
            { confirmedBy: user, applyingOwner: owner, applyingSince: now },
            { now },
          ),
        async (record) => (record ? { kind: 'claimed', change: toChange(record, c.approvals) } : undefined),
      );
    } catch (err) {
      await lease.release();
      throw err;
    }
    if (!claimed) {
      await lease.release();
      return this.core.explainStale(c.id);
    }
    if (action === 'confirm') {
      await this.core.audit({
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
      return await this.run(applying, user, told);
    } finally {
      await lease.release();
    }
  }

  private async run(change: Change, user: string, told?: ClickTold): Promise<ClickOutcome> {
    const { logger } = this.core.o;
    const module = operationModule(change.operation);
    const ctx = this.core.context(change, 'apply', user);
    let settled: Settlement;
    try {
      settled = { status: 'succeeded', result: await module.apply(ctx, this.core.applyInput(change)) };
    } catch (err) {
      const failure = describeFailure(err, logger, { changeId: change.id });
      // A write that got no clear answer may still have happened: read the API before saying anything.
      settled = await settleFailedApply(
        change,
        err,
        failure,
        () => module.verify(ctx, this.core.applyInput(change)),
        this.core.now(),
        logger,
      );
    }
    let final: Change;
    try {
      final = (await this.record(change, settled, user, 'apply', told)) ?? change;
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      // The API has answered; only the store failed. Say what happened, and store it later.
      logger.error('could not record an apply; housekeeping will', { changeId: change.id, error: err });
      this.core.pendingRecords.hold({ change, settled, actor: user, action: 'apply' });
      final = asSettled(change, settled, this.core.now());
    }
    return settledOutcome(settled, final);
  }

  /**
   * Stores the settlements this process could not store when its applies
   * ended; returns the changes they settled (their messages must be redrawn).
   * One the store still refuses stays held for the next pass.
   */
  async storePending(): Promise<Change[]> {
    const out: Change[] = [];
    for (const held of this.core.pendingRecords.list()) {
      try {
        const stored = await this.record(held.change, held.settled, held.actor, held.action);
        this.core.pendingRecords.drop(held.change.id);
        // Undefined: recovery elsewhere settled it first; its own pass redraws it.
        if (stored) out.push(stored);
      } catch (err) {
        this.core.o.logger.warn('a pending apply record is still not stored', {
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
  async record(
    change: Change,
    settled: Settlement,
    actor: string,
    action: 'apply' | 'recover',
    told?: ClickTold,
  ): Promise<Change | undefined> {
    const now = this.core.now();
    // A recovery's settlement commits with the `closed` event telling of it, a click's with its
    // `clicked` event (click-told.ts); one stored later (storePending) was told by its click.
    const write = async (settle: (tx: TransactionStore) => Promise<ChangeRecord | undefined>) => {
      // A guarded change is watched from its apply (src/guards/ does the watching, on whichever
      // replica holds it): its guard commits with the settlement, so no applied change goes unguarded.
      const work = async (tx: TransactionStore) => {
        const written = await settle(tx);
        if (written?.status === 'succeeded' && change.guard)
          await tx.createGuard({
            changeId: change.id,
            rule: change.guard.rule,
            withinMs: change.guard.withinMs,
            windowEnd: now + change.guard.withinMs,
            createdAt: now,
          });
        return written;
      };
      if (action === 'recover') return this.core.closing(work, change.approvals);
      if (!told) return this.core.o.store.atomically(work);
      const record = await this.core.write(work, async (written) =>
        written
          ? clickedEvent(told, settledOutcome(settled, toChange(written, change.approvals)))
          : undefined,
      );
      if (record) told.committed = true;
      return record;
    };
    const done = await write((store) =>
      settled.status === 'unconfirmed'
        ? store.transitionChange(
            change.id,
            ['applying'],
            'applying',
            { error: settled.failure, applyingOwner: undefined },
            { now },
          )
        : store.transitionChange(
            change.id,
            ['applying'],
            settled.status,
            settled.status === 'succeeded'
              ? {
                  ...splitUndo(settled.result, now),
                  ...followStateAtApply(change.operation),
                  error: undefined,
                  applyingOwner: undefined,
                }
              : { error: settled.failure, applyingOwner: undefined },
            { now },
          ),
    );
    await this.core.audit({
      at: now,
      changeId: change.id,
      actor,
      action,
      operation: change.operation,
      origin: change.origin,
      outcome: settled.status,
      detail:
        settled.status === 'succeeded'
          ? {
              summary: settled.result.summary,
              lines: settled.result.lines,
              // An apply through a freeze says so in the audit, with the freeze and the reason given.
              ...(change.breakGlass ? { breakGlass: change.breakGlass } : {}),
            }
          : settled.failure,
    });
    return done ? toChange(done, change.approvals) : undefined;
  }
}

/** What a click that applied says: the settlement, on the change as stored. */
function settledOutcome(settled: Settlement, change: Change): ClickOutcome {
  if (settled.status === 'succeeded') return { kind: 'applied', change };
  if (settled.status === 'failed') return { kind: 'failed', change };
  return { kind: 'unconfirmed', change };
}

/** The result for its column and what a rollback needs for its own (stored when the change applies). */
function splitUndo(result: Result, now: number): { result: Result; undo?: Undo; appliedAt: number } {
  const { undo, ...rest } = result;
  return { result: rest, ...(undo ? { undo } : {}), appliedAt: now };
}
