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

import type { ChangeNotice } from '../store/types.js';
import type { Asker } from './authorize.js';
import type { Change, ClickOutcome } from './change.js';
import { type ClaimedNotices, claimDueNotices } from './change-notices.js';
import { Applier } from './engine/apply.js';
import { type ClickTold, clickedEvent, clickTold } from './engine/click-told.js';
import { Clicks } from './engine/clicks.js';
import { EngineCore } from './engine/core.js';
import { FollowUps } from './engine/follow-ups.js';
import { type GuardRollback, GuardRollbacks } from './engine/guard-rollback.js';
import type { ChangeEngineOptions, ClickInput, RequestInput } from './engine/options.js';
import { Recovery } from './engine/recovery.js';
import { requestChange } from './engine/request.js';
import type { GuardOutcome } from './guard-outcome.js';
import type { FollowEvent } from './operation.js';
import { ScheduledApplies } from './schedule/due.js';
import { scheduledFor } from './schedule/list.js';

export class ChangeEngine {
  private readonly core: EngineCore;
  private readonly clicks: Clicks;
  private readonly recovery: Recovery;
  private readonly followUps: FollowUps;
  private readonly scheduled: ScheduledApplies;
  private readonly guards: GuardRollbacks;

  constructor(options: ChangeEngineOptions) {
    this.core = new EngineCore(options);
    const applier = new Applier(this.core);
    this.clicks = new Clicks(this.core, applier);
    this.followUps = new FollowUps(this.core);
    this.recovery = new Recovery(this.core, applier, this.followUps);
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

  /** The requester confirms a pending change (or an approved one whose apply was not started). */
  confirm(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, (told) => this.clicks.confirm(click, told));
  }

  /** An approver approves; when enough distinct approvers have, the change is applied at once. */
  approve(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, (told) => this.clicks.approve(click, told));
  }

  /** An approver rejects: the change is closed and will not be applied. */
  reject(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, (told) => this.clicks.reject(click, told));
  }

  /** The requester (or an approver) withdraws a change that has not started applying. */
  cancel(click: ClickInput): Promise<ClickOutcome> {
    return this.announced(click, (told) => this.clicks.cancel(click, told));
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

  /** Resolves applies a dead process left behind and applies that ended unconfirmed (engine/recovery.ts); follows up those that landed. */
  recoverInterrupted(): Promise<Change[]> {
    return this.recovery.recoverInterrupted();
  }

  /** Applied changes whose follow-up was cut short by its replica stopping, followed up again here (engine/recovery.ts). */
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
   * Watches the aftermath of a succeeded change (vessel scheduled, gone, ...)
   * under the follow-up lease (engine/follow-ups.ts). Where a step ends (not
   * each passing one), its state becomes the result's State line, committed
   * with a `followed` event, before the step is yielded.
   */
  follow(change: Change, signal?: AbortSignal): AsyncIterable<FollowEvent> {
    return this.followUps.follow(change, signal);
  }

  /** Resolves once the follow-ups this replica runs have ended (tests, tools). */
  followUpsDone(): Promise<void> {
    return this.followUps.idle();
  }

  /** Ends this replica's follow-ups early (they stay due, and are resumed elsewhere or after a restart). */
  stop(): Promise<void> {
    return this.followUps.stop();
  }

  /**
   * Claims the notices due now (approvers reminded, requesters told of an
   * expiry: change-notices.ts) and publishes them as one `notices` event, for
   * whoever shows changes to deliver; resolves once that is written.
   */
  async claimNotices(): Promise<ClaimedNotices> {
    const notices = await claimDueNotices(this.core.o.store, this.core.now());
    if (notices.reminders.length + notices.expired.length > 0)
      await this.core.publish({ kind: 'notices', notices });
    return notices;
  }

  /** Gives back a notice its surface could not deliver, so the next housekeeping pass claims it again. */
  giveBackNotice(id: string, notice: ChangeNotice): Promise<void> {
    return this.core.o.store.releaseNotice(id, notice);
  }

  /**
   * Tells whoever shows the change what the click did (every outcome: what
   * is worth a redraw is theirs to judge; its release is told when the click
   * moved something, changes/publish.ts), then follows an applied change up
   * where this replica runs the lifecycle. A click that wrote its change
   * committed its `clicked` event with that write (engine/click-told.ts); one
   * that wrote nothing (refused, stale, an approval short of the count) is
   * published here, after it.
   */
  private async announced(
    input: ClickInput,
    click: (told: ClickTold) => Promise<ClickOutcome>,
  ): Promise<ClickOutcome> {
    const told = clickTold(input);
    const outcome = await click(told);
    // Nobody here waits for its listeners.
    if (!told.committed) await this.core.publish(clickedEvent(told, outcome));
    // The follow-up starts after the outcome is told, so the thread says the outcome first.
    if (outcome.kind === 'applied' && this.core.o.runFollowUps) this.followUps.start(outcome.change);
    return outcome;
  }
}
