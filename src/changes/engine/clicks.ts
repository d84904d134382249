/**
 * The four clicks on a change (confirm, approve, reject, cancel): each loads
 * the change, asks the policy the same click question, and moves the change
 * atomically, so of two clicks at once exactly one wins and the other is told
 * what became of it.
 */
import { UserError } from '../../errors/user-error.js';
import type { ClickInput as PolicyClickInput } from '../../policy/types.js';
import { type ChangeStatus, EXPIRABLE_STATUSES } from '../../store/types.js';
import { type Change, type ChangeFailure, type ClickOutcome, toChange } from '../change.js';
import { staleReason } from '../stale-reason.js';
import type { Applier } from './apply.js';
import { type ClickTold, writeClick } from './click-told.js';
import type { EngineCore } from './core.js';
import type { ClickInput } from './options.js';

const APPLYABLE_BY_CONFIRM: readonly ChangeStatus[] = ['pending', 'approved'];

/** Whether `c` is scheduled for a time still ahead (a click then schedules it rather than applying it). */
function waitsForItsTime(c: Change, now: number): boolean {
  return c.scheduledAt !== undefined && c.scheduledAt > now;
}

export class Clicks {
  constructor(
    private readonly core: EngineCore,
    private readonly applier: Applier,
  ) {}

  async confirm({ changeId, user, channel, team }: ClickInput, told: ClickTold): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    if (c.status === 'awaiting_approval') {
      return { kind: 'refused', message: 'This change needs approval before it can be applied.', change: c };
    }
    if (c.status === 'approved' && waitsForItsTime(c, this.core.now())) {
      return {
        kind: 'refused',
        message: `This change is already set to apply ${this.core.names.time(c.scheduledAt as number)}; Cancel it to stop it.`,
        change: c,
      };
    }
    const decision = await this.core.o.policy.authorizeConfirm(this.question(c, { user, channel, team }));
    if (!decision.allowed) return this.core.refuse(c, user, 'confirm', decision.reason, team);
    // A freeze put since the preview stops it here; the change stays open for after the freeze.
    const frozen = await this.core.freezeRefusal(c);
    if (frozen) return this.core.refuse(c, user, 'confirm', frozen, team);
    if (c.status === 'approved') {
      // Left approved by an apply that never claimed it: its approvers may have left their group since.
      const stillApproved = await this.recountApproved(c, user, team);
      if (stillApproved) return stillApproved;
    }
    const late = await this.missedAtClick(c);
    if (late) return late;
    if (waitsForItsTime(c, this.core.now()))
      return this.schedule(c, user, ['pending'], 'confirm', told, team);
    return this.applier.claimAndApply(c, user, APPLYABLE_BY_CONFIRM, 'confirm', team, told);
  }

  async approve({ changeId, user, channel, team }: ClickInput, told: ClickTold): Promise<ClickOutcome> {
    const { store } = this.core.o;
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
    if (!decision.allowed) return this.core.refuse(c, user, 'approve', decision.reason, team);
    // No approval is recorded during a freeze: it would apply the change the moment it counts.
    const frozen = await this.core.freezeRefusal(c);
    if (frozen) return this.core.refuse(c, user, 'approve', frozen, team);
    const now = this.core.now();
    const added = await store.addApproval({ changeId, userId: user, decision: 'approve', at: now });
    if (added)
      await this.core.audit({
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
    const fresh = (await this.core.get(changeId)) as Change;
    const after = await this.judgeApproval(fresh, user, channel, team);
    if (!after.allowed) return this.core.refuse(fresh, user, 'approve', after.reason);
    if (!after.satisfied) {
      return {
        kind: 'approval_recorded',
        change: fresh,
        count: after.count ?? 0,
        required: after.required ?? 0,
        ...(added ? {} : { repeat: true }),
      };
    }
    const late = await this.missedAtClick(fresh);
    if (late) return late;
    // Approved ahead of its time: it waits, approved, for the scheduler; approvals keep their expiry.
    if (waitsForItsTime(fresh, now))
      return this.schedule(fresh, user, ['awaiting_approval'], 'approve', told, team, {});
    const approved = await store.transitionChange(changeId, ['awaiting_approval'], 'approved', {}, { now });
    if (!approved) return this.core.explainStale(changeId);
    return this.applier.claimAndApply(
      toChange(approved, fresh.approvals),
      user,
      ['approved'],
      'approve',
      team,
      told,
    );
  }

  async reject(
    { changeId, user, channel, team, reason }: ClickInput,
    told: ClickTold,
  ): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    const decision = await this.judgeApproval(c, user, channel, team);
    if (!decision.allowed || c.status !== 'awaiting_approval') {
      return this.core.refuse(
        c,
        user,
        'reject',
        decision.allowed ? 'Only changes awaiting approval can be rejected.' : decision.reason,
        team,
      );
    }
    await this.core.o.store.addApproval({
      changeId,
      userId: user,
      decision: 'reject',
      at: this.core.now(),
      ...(reason ? { comment: reason } : {}),
    });
    return this.close(c, user, ['awaiting_approval', 'approved'], 'rejected', told, team, reason);
  }

  async cancel({ changeId, user, channel, team }: ClickInput, told: ClickTold): Promise<ClickOutcome> {
    const change = await this.actionable(changeId);
    if (change.kind !== 'ok') return change.outcome;
    const c = change.change;
    const decision = await this.core.o.policy.authorizeCancel(this.question(c, { user, channel, team }));
    if (!decision.allowed) return this.core.refuse(c, user, 'cancel', decision.reason, team);
    return this.close(c, user, ['pending', 'awaiting_approval', 'approved'], 'cancelled', told, team);
  }

  /**
   * Changes awaiting approval that `user` (of workspace `team`) may approve now
   * from `channel` (for "/harbor approvals"); from no channel (the Home tab),
   * each is judged in its own channel.
   */
  async approvableBy(user: string, channel: string, team: string): Promise<Change[]> {
    const now = this.core.now();
    const records = await this.core.o.store.listChanges({ status: ['awaiting_approval'], limit: 200 });
    const open = await this.core.withApprovals(records.filter((record) => record.expiresAt > now));
    const out: Change[] = [];
    for (const c of open) {
      const decision = await this.judgeApproval(c, user, channel, team);
      if (decision.allowed && !c.approvals.some((a) => a.userId === user)) out.push(c);
    }
    return out;
  }

  /**
   * Moves a scheduled change from `from` to approved, to wait for its time
   * (changes/schedule/due.ts applies it then). Confirmed by its requester,
   * it no longer expires before its time: it ends at its grace instead.
   */
  private async schedule(
    c: Change,
    user: string,
    from: readonly ChangeStatus[],
    action: 'confirm' | 'approve',
    told: ClickTold,
    team: string,
    patch: { expiresAt?: number } = {
      expiresAt: (c.scheduledAt as number) + this.core.schedule.graceMs,
    },
  ): Promise<ClickOutcome> {
    const now = this.core.now();
    // The `scheduled` outcome commits with the move (click-told.ts).
    const done = await writeClick(
      this.core,
      told,
      (tx) => tx.transitionChange(c.id, from, 'approved', { confirmedBy: user, ...patch }, { now }),
      async (record) => ({ kind: 'scheduled', change: toChange(record, c.approvals) }),
    );
    if (!done) return this.core.explainStale(c.id);
    if (action === 'confirm')
      await this.core.audit({
        at: now,
        changeId: c.id,
        actor: user,
        action: 'confirm',
        operation: c.operation,
        origin: c.origin,
        workspace: team,
        detail: { scheduledAt: c.scheduledAt },
      });
    return done;
  }

  /**
   * A scheduled change confirmed or approved past its time plus the grace is
   * missed (nothing applies); within the grace the click applies it, late.
   */
  private async missedAtClick(c: Change): Promise<ClickOutcome | undefined> {
    const now = this.core.now();
    if (c.scheduledAt === undefined) return undefined;
    const lateMs = now - c.scheduledAt;
    const { graceMs } = this.core.schedule;
    if (lateMs <= graceMs) return undefined;
    const failure: ChangeFailure = { kind: 'missed', scheduledAt: c.scheduledAt, lateMs, graceMs };
    const done = await this.core.o.store.transitionChange(
      c.id,
      EXPIRABLE_STATUSES,
      'expired',
      { error: failure },
      { now },
    );
    if (!done) return this.core.explainStale(c.id);
    await this.core.audit({
      at: now,
      changeId: c.id,
      actor: 'harbormaster',
      action: 'missed',
      operation: c.operation,
      origin: c.origin,
      detail: failure,
    });
    return {
      kind: 'stale',
      reason: { kind: 'expired', at: now },
      change: toChange(done, c.approvals),
      expiredIt: true,
    };
  }

  /** Loads a change and answers for it when it is missing, final, or past its expiry. */
  private async actionable(
    id: string,
  ): Promise<{ kind: 'ok'; change: Change } | { kind: 'done'; outcome: ClickOutcome }> {
    const change = await this.core.get(id);
    if (!change)
      throw new UserError('This change no longer exists (it may have been cleaned up).', 'not_found');
    const now = this.core.now();
    if (EXPIRABLE_STATUSES.includes(change.status) && change.expiresAt <= now) {
      const expired = await this.core.o.store.transitionChange(
        id,
        EXPIRABLE_STATUSES,
        'expired',
        {},
        { now },
      );
      if (expired) {
        await this.core.audit({
          at: now,
          changeId: id,
          actor: 'harbormaster',
          action: 'expire',
          operation: change.operation,
          origin: change.origin,
        });
      }
      const outcome = await this.core.explainStale(id);
      return {
        kind: 'done',
        outcome: expired && outcome.kind === 'stale' ? { ...outcome, expiredIt: true } : outcome,
      };
    }
    if (!EXPIRABLE_STATUSES.includes(change.status)) {
      return { kind: 'done', outcome: { kind: 'stale', reason: staleReason(change), change } };
    }
    return { kind: 'ok', change };
  }

  /** Closes an open change as rejected or cancelled by `user`, atomically; stale if someone got there first. */
  private async close(
    c: Change,
    user: string,
    from: readonly ChangeStatus[],
    kind: 'rejected' | 'cancelled',
    told: ClickTold,
    team?: string,
    reason?: string,
  ): Promise<ClickOutcome> {
    const now = this.core.now();
    // Who closed it is `by`; renderers name them and write the words.
    const failure: ChangeFailure =
      kind === 'rejected' ? { kind, by: user, ...(reason ? { reason } : {}) } : { kind, by: user };
    // The outcome commits with the move (click-told.ts), with the approvals as stored (a rejection's own).
    const done = await writeClick(
      this.core,
      told,
      (tx) => tx.transitionChange(c.id, from, 'cancelled', { error: failure }, { now }),
      async (record, tx) => {
        const [change] = await this.core.withApprovalsIn(tx, [record]);
        return { kind, change: change as Change };
      },
    );
    if (!done) return this.core.explainStale(c.id);
    await this.core.audit({
      at: now,
      changeId: c.id,
      actor: user,
      action: kind === 'rejected' ? 'reject' : 'cancel',
      operation: c.operation,
      origin: c.origin,
      workspace: team,
      ...(reason ? { detail: { reason } } : {}),
    });
    return done;
  }

  /**
   * Recounts an approved change's approvals with today's membership. When
   * they no longer suffice the change goes back to awaiting approval and the
   * confirm is refused (the outcome is returned); undefined when it may apply.
   */
  private async recountApproved(c: Change, user: string, team?: string): Promise<ClickOutcome | undefined> {
    const recount = await this.core.recount(c, team);
    if (recount.allowed && recount.satisfied) return undefined;
    const reopened = await this.core.o.store.transitionChange(
      c.id,
      ['approved'],
      'awaiting_approval',
      {},
      { now: this.core.now() },
    );
    if (!reopened) return this.core.explainStale(c.id);
    const fresh = (await this.core.get(c.id)) as Change;
    const reason = recount.allowed
      ? `Its approvals no longer suffice: ${recount.count ?? 0} of ${recount.required ?? 0} approvals come from people who may approve it today, so it needs approval again.`
      : recount.reason;
    return this.core.refuse(fresh, user, 'confirm', reason, team);
  }

  /** The policy's verdict on `user` approving (or rejecting) `c` now. */
  private judgeApproval(c: Change, user: string, channel: string, team: string) {
    return this.core.o.policy.authorizeApproval({
      ...this.question(c, { user, channel, team }),
      approvals: c.approvals,
      now: this.core.now(),
      expiresAt: c.expiresAt,
    });
  }

  /**
   * The policy question every click on `c` asks: who clicks, from which
   * channel and workspace, on what. A click from no channel (the App Home
   * tab) acts on the change where it lives, so it is judged in the change's
   * own channel: its outcome is drawn there for everyone, as a click there would be.
   */
  private question(c: Change, clicker: { user: string; channel: string; team: string }): PolicyClickInput {
    return {
      ...clicker,
      channel: clicker.channel || c.origin.channel,
      workspace: c.origin.workspace,
      requester: c.requester,
      operation: c.judgeBy ?? c.operation,
      target: c.target,
      // A change that breaks a freeze is approved (and may be cancelled) by the break-glass approvers.
      ...(c.breakGlass ? { breakGlass: true } : {}),
    };
  }
}
