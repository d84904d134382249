/**
 * The change engine: one lifecycle for every operation that changes the
 * hosting API. request -> (policy) -> plan -> stored pending Change -> click
 * -> (policy again) -> atomic claim -> apply -> recorded result. All state
 * lives in the store, so any replica can take any click, and a double click,
 * a retry or a restart never applies twice.
 *
 * This class is the engine's one face; the work lives in engine/: request.ts
 * (request), clicks.ts (confirm, approve, reject, cancel), apply.ts (claim,
 * apply, record), recovery.ts (what housekeeping asks), core.ts (what they share).
 */

import { holdFollowLease, uniqueOwner } from './apply-lease.js';
import type { Asker } from './authorize.js';
import { type Change, type ClickOutcome, FINAL_STATUSES, toChange } from './change.js';
import { Applier } from './engine/apply.js';
import { Clicks } from './engine/clicks.js';
import { EngineCore } from './engine/core.js';
import { type GuardRollback, GuardRollbacks } from './engine/guard-rollback.js';
import type { ChangeEngineOptions, ClickInput, RequestInput } from './engine/options.js';
import { Recovery } from './engine/recovery.js';
import { requestChange } from './engine/request.js';
import { outcomeOf, storedOutcome, worseOutcome } from './follow-outcome.js';
import type { GuardOutcome } from './guard-outcome.js';
import type { FollowEvent } from './operation.js';
import { operationModule } from './operations/index.js';
import { ScheduledApplies } from './schedule/due.js';
import { scheduledFor } from './schedule/list.js';

export class ChangeEngine {
  private readonly core: EngineCore;
  private readonly clicks: Clicks;
  private readonly recovery: Recovery;
  private readonly scheduled: ScheduledApplies;
  private readonly guards: GuardRollbacks;

  constructor(options: ChangeEngineOptions) {
    this.core = new EngineCore(options);
    const applier = new Applier(this.core);
    this.clicks = new Clicks(this.core, applier);
    this.recovery = new Recovery(this.core, applier);
    this.scheduled = new ScheduledApplies(this.core, applier);
    this.guards = new GuardRollbacks(this.core, applier);
  }

  /**
   * Applies the scheduled changes whose time has come (exactly one replica
   * writes each), marks missed those past the grace and expires those whose
   * approvals ran out first (changes/schedule/due.ts). What it moved is told
   * as change events nobody waits for.
   */
  runScheduled(): Promise<ClickOutcome[]> {
    return this.scheduled.runDue();
  }

  /**
   * The scheduled changes not started yet that `asker` may list (the read
   * `changes.scheduled`), in their workspace and `environment` when given,
   * soonest first; throws the policy's refusal as a UserError.
   */
  scheduledFor(asker: Asker, environment?: string): Promise<Change[]> {
    return scheduledFor(() => this.pendingScheduled(), this.core.o.policy, asker, environment);
  }

  /** Scheduled changes not started yet (waiting for a click or for their time), soonest first. */
  async pendingScheduled(): Promise<Change[]> {
    const records = await this.core.o.store.listChanges({
      status: ['pending', 'awaiting_approval', 'approved'],
      scheduled: true,
      limit: 500,
    });
    const now = this.core.now();
    const open = records.filter((r) => r.expiresAt > now || r.status === 'approved');
    const changes = await this.core.withApprovals(open);
    return changes.sort((a, b) => (a.scheduledAt as number) - (b.scheduledAt as number));
  }

  /**
   * Validates, authorizes and plans a change, and stores it as pending (or
   * awaiting approval). Throws UserError (validation, refusal, not found, ...)
   * with a message meant for the requester.
   */
  request(input: RequestInput): Promise<Change> {
    return requestChange(this.core, input);
  }

  /** The change with its approvals, or undefined. */
  get(id: string): Promise<Change | undefined> {
    return this.core.get(id);
  }

  /**
   * Records where the preview was posted (message ts), so later updates can
   * find it. A new change of a release is announced here rather than at
   * request(): once placed, what shows the release can link to it.
   */
  async setOrigin(id: string, origin: Partial<Change['origin']>): Promise<void> {
    const record = await this.core.o.store.updateChangeOrigin(id, origin, this.core.now());
    if (record) await this.core.announce([toChange(record, [])]);
  }

  /** The requester confirms a pending change (or an approved one whose apply was not started). */
  confirm(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, this.clicks.confirm(click));
  }

  /** An approver approves; when enough distinct approvers have, the change is applied at once. */
  approve(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, this.clicks.approve(click));
  }

  /** An approver rejects: the change is closed and will not be applied. */
  reject(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, this.clicks.reject(click));
  }

  /** The requester (or an approver) withdraws a change that has not started applying. */
  cancel(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, this.clicks.cancel(click));
  }

  /** Expires every open change past its deadline and returns them; tells them as moved without waiting for their redraw. */
  expireDue(): Promise<Change[]> {
    return this.recovery.expireDue();
  }

  /** Changes awaiting approval that `user` (of workspace `team`) may approve now (for "/harbor approvals"). */
  approvableBy(user: string, channel: string, team: string): Promise<Change[]> {
    return this.clicks.approvableBy(user, channel, team);
  }

  /** The latest `limit` changes `user` requested, newest first, whatever their status (for the Home tab). */
  async requestsOf(user: string, limit: number): Promise<Change[]> {
    const records = await this.core.o.store.listChanges({ requester: user, limit: 500 });
    const newest = [...records].sort((a, b) => b.createdAt - a.createdAt).slice(0, limit);
    return this.core.withApprovals(newest);
  }

  /** Resolves applies a dead process left behind and applies that ended unconfirmed (engine/recovery.ts). */
  recoverInterrupted(): Promise<Change[]> {
    return this.recovery.recoverInterrupted();
  }

  /** Applied changes whose follow-up was cut short by its replica stopping, told to be followed again (engine/recovery.ts). */
  resumeFollowUps(): Promise<Change[]> {
    return this.recovery.resumeFollowUps();
  }

  /**
   * Rolls back guarded change `original` because its guard saw `trigger` (issue 42): through the
   * rollback lifecycle, as Harbormaster on behalf of the rule that set the guard; once per change
   * across replicas. Nothing is written when the target moved (engine/guard-rollback.ts).
   */
  rollbackByGuard(original: Change, trigger: string): Promise<GuardRollback> {
    return this.guards.rollBack(original, trigger);
  }

  /** Records how a change's guard ended and tells whoever shows it (a `guarded` event); undefined when already recorded. */
  endGuard(changeId: string, outcome: GuardOutcome, rollback?: Change): Promise<Change | undefined> {
    return this.guards.end(changeId, outcome, rollback);
  }

  /** Promotions applied but not yet visible, looked at again (housekeeping); returns those that moved. */
  recheckUnverified(limit = 50): Promise<Change[]> {
    return this.recovery.recheckUnverified(limit);
  }

  /**
   * Watches the aftermath of a succeeded change (vessel scheduled, gone, ...).
   * Where a step ends (not each passing one), its state becomes the result's
   * State line, and a `followed` event tells whoever shows the change before
   * the step is yielded.
   */
  async *follow(
    change: Change,
    signal?: AbortSignal,
    onLease?: () => Promise<void>,
  ): AsyncIterable<FollowEvent> {
    const module = operationModule(change.operation);
    if (!module.follow || change.status !== 'succeeded' || !change.result) return;
    // One follow-up at a time per change, on any replica: a resumed one and the click's never both.
    const lease = await holdFollowLease(
      this.core.leaseOptions(),
      change.id,
      uniqueOwner(this.core.o.replicaId, 'follow'),
    );
    if (!lease) return;
    let latest = change;
    try {
      await onLease?.();
      const steps = module.follow(
        { ...this.core.context(), ...(signal ? { signal } : {}) },
        this.core.applyInput(change),
        change.result,
      );
      for await (const event of steps) {
        // Where a step ends: its state, and the end itself, so a failed rollout does not stay "Done".
        if (event.kind !== 'progress') {
          const stated = event.state ? await this.recordState(latest, event.state) : undefined;
          if (stated) latest = stated;
          const ended = await this.recordFollowUp(latest, event);
          if (ended) latest = ended;
          if (stated || ended) await this.core.tell({ kind: 'followed', change: latest });
        }
        yield event;
      }
    } finally {
      // Cut short by this replica stopping: still due, for housekeeping to resume (follow-due.ts).
      if (!signal?.aborted) {
        await this.core.o.store
          .markFollowedUp(change.id)
          .catch((error: unknown) =>
            this.core.o.logger.warn('could not mark a follow-up over', { changeId: change.id, error }),
          );
      }
      await lease.release();
    }
  }

  /**
   * Records where the follow-up ended (`result.facts.followUp`, the worse of
   * what is stored and `event`: follow-outcome.ts), so the change's message
   * and the requester's Home carry it. Undefined when nothing changed.
   */
  private async recordFollowUp(change: Change, event: FollowEvent): Promise<Change | undefined> {
    const result = change.result;
    const next = outcomeOf(event);
    if (change.status !== 'succeeded' || !result || !next) return undefined;
    const stored = storedOutcome(result.facts);
    const kept = worseOutcome(stored, next);
    if (stored && JSON.stringify(stored) === JSON.stringify(kept)) return undefined;
    const updated = await this.core.o.store.transitionChange(
      change.id,
      ['succeeded'],
      'succeeded',
      { result: { ...result, facts: { ...result.facts, followUp: kept } } },
      { now: change.updatedAt },
    );
    return updated ? toChange(updated, change.approvals) : undefined;
  }

  /**
   * Records the state a follow-up saw as the result's State line, so the
   * change shows the last known state, not the one at apply. Returns the
   * updated change, or undefined when nothing changed.
   */
  private async recordState(change: Change, state: string): Promise<Change | undefined> {
    const result = change.result;
    if (change.status !== 'succeeded' || !result) return undefined;
    const line = { label: 'State', value: state };
    const known = result.lines.some((l) => l.label === 'State');
    if (result.lines.some((l) => l.label === 'State' && l.value === state)) return undefined;
    const lines = known ? result.lines.map((l) => (l.label === 'State' ? line : l)) : [...result.lines, line];
    const updated = await this.core.o.store.transitionChange(
      change.id,
      ['succeeded'],
      'succeeded',
      { result: { ...result, lines } },
      { now: change.updatedAt },
    );
    return updated ? toChange(updated, change.approvals) : undefined;
  }

  /**
   * Announces a click's change to its release unless the click moved nothing:
   * a refused click, or a stale one on a change still applying (a redraw then
   * could land after the applying click's own). A stale click on a finished
   * change is announced, which repairs a release message an outage left
   * behind. Then tells whoever shows the change what the click did (every
   * outcome: what is worth a redraw is theirs to judge).
   */
  private async announced(input: ClickInput, click: Promise<ClickOutcome>): Promise<ClickOutcome> {
    const outcome = await click;
    const moved =
      outcome.kind === 'stale' ? FINAL_STATUSES.includes(outcome.change.status) : outcome.kind !== 'refused';
    if (moved) await this.core.announce([outcome.change]);
    await this.core.tell({
      kind: 'clicked',
      outcome,
      by: input.user,
      ...(input.releaseEnd ? { releaseEnd: true } : {}),
    });
    return outcome;
  }
}
