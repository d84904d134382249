/**
 * Scheduled changes at their time (issue 41): every replica's scheduler loop
 * (startup/core.ts) looks for approved changes whose time has come and
 * applies each through the same guarded apply as a click (engine/apply.ts):
 * the apply lease and the atomic move to `applying` let exactly one replica
 * write it, the freeze check runs again with the lease held, and the
 * operation's own guard refuses a target that moved since the preview.
 * A change no replica reached within the grace after its time is marked
 * missed; one whose approvals expired before its time is expired. Whoever
 * shows changes is told by the change events, never called.
 */
import type { Change, ClickOutcome } from '../change.js';
import type { Applier } from '../engine/apply.js';
import type { EngineCore } from '../engine/core.js';

/** How many scheduled changes one pass looks at. */
const PASS_LIMIT = 200;

/** Who the audit names for what the scheduler does on its own (a missed or expired change). */
export const SCHEDULER_ACTOR = 'harbormaster';

export class ScheduledApplies {
  constructor(
    private readonly core: EngineCore,
    private readonly applier: Applier,
  ) {}

  /**
   * One pass: applies the changes whose time has come (late ones within the
   * grace), marks missed those past it and expires those whose approvals ran
   * out before their time. Returns what this replica moved; the changes
   * another replica took are left to it.
   */
  async runDue(): Promise<ClickOutcome[]> {
    const now = this.core.now();
    const records = await this.core.o.store.listChanges({
      status: ['approved'],
      scheduled: true,
      limit: PASS_LIMIT,
    });
    const waiting = records.filter((r) => (r.scheduledAt as number) <= now || r.expiresAt <= now);
    const out: ClickOutcome[] = [];
    for (const c of await this.core.withApprovals(waiting)) {
      const moved = await this.runOne(c).catch((error: unknown) => {
        this.core.o.logger.error('a scheduled change could not be applied', { changeId: c.id, error });
        return undefined;
      });
      if (moved) out.push(moved);
    }
    return out;
  }

  private async runOne(c: Change): Promise<ClickOutcome | undefined> {
    const now = this.core.now();
    const at = c.scheduledAt as number;
    const lateMs = now - at;
    const { graceMs } = this.core.schedule;
    if (at <= now && lateMs > graceMs) {
      return this.end(c, 'expired', { kind: 'missed', scheduledAt: at, lateMs, graceMs }, 'missed');
    }
    // Approvals given ahead expire as the policy says, even before the time they were given for.
    if (c.expiresAt <= now) return this.end(c, 'expired', undefined, 'expire');
    if (at > now) return undefined;
    // Whoever set it going (the requester's Confirm or the last approval) is who applies it, as at a click.
    const actor = c.confirmedBy ?? c.requester;
    // A freeze in force at its time: refused, naming the freeze; it does not wait for the freeze's end.
    const frozen = await this.core.blockingFreeze(c);
    if (frozen) return this.end(c, 'failed', { kind: 'frozen', freeze: frozen }, 'apply_refused');
    // Approvals given ahead are counted again with today's membership, as a Confirm of an approved change does.
    const short = await this.approvalsShort(c);
    if (short)
      return this.end(c, 'failed', { kind: 'user', problem: 'refused', text: short }, 'apply_refused');
    const outcome = await this.applier.claimAndApply(c, actor, ['approved'], 'schedule');
    if (outcome.kind === 'refused') {
      // A freeze put between the look above and the apply lease: the apply's own check refused it.
      const freeze = await this.core.blockingFreeze(c);
      const error: Change['error'] = freeze
        ? { kind: 'frozen', freeze }
        : { kind: 'user', problem: 'refused', text: outcome.message };
      return this.end(c, 'failed', error, 'apply_refused');
    }
    // Another replica holds or already made the apply: that replica tells what it did.
    if (outcome.kind === 'stale') return undefined;
    await this.core.publish({ kind: 'clicked', outcome, by: SCHEDULER_ACTOR });
    return outcome;
  }

  /** Why `c`'s approvals no longer let it apply (an approver left the group since), or undefined. */
  private async approvalsShort(c: Change): Promise<string | undefined> {
    if (c.requirement.mode !== 'approval' && !c.breakGlass) return undefined;
    const recount = await this.core.recount(c);
    if (recount.allowed && recount.satisfied) return undefined;
    return recount.allowed
      ? `Refused at its time: its approvals no longer suffice. Of the people who approved it, ${recount.count ?? 0} may approve it today, and it needs ${recount.required ?? 0}. Nothing was applied; request it again.`
      : `Refused at its time: ${recount.reason}`;
  }

  /** Ends `c` (approved) as `status` with `error`, audited; told to whoever shows it. Undefined when another replica did. */
  private async end(
    c: Change,
    status: 'expired' | 'failed',
    error: Change['error'],
    action: string,
  ): Promise<ClickOutcome | undefined> {
    const now = this.core.now();
    const done = await this.core.o.store.transitionChange(
      c.id,
      ['approved'],
      status,
      error ? { error } : {},
      { now },
    );
    if (!done) return undefined;
    await this.core.audit({
      at: now,
      changeId: c.id,
      actor: SCHEDULER_ACTOR,
      action,
      operation: c.operation,
      origin: c.origin,
      outcome: status,
      ...(error ? { detail: error } : {}),
    });
    const ended = (await this.core.get(c.id)) as Change;
    if (status === 'failed') {
      const outcome: ClickOutcome = { kind: 'failed', change: ended };
      await this.core.publish({ kind: 'clicked', outcome, by: SCHEDULER_ACTOR });
      return outcome;
    }
    // Expired and missed changes are redrawn; their requester is told by the expiry notice (change-notices.ts).
    this.core.publishMoved([ended]);
    return { kind: 'stale', reason: { kind: 'expired', at: now }, change: ended };
  }
}
