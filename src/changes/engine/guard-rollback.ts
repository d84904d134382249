/**
 * The automatic rollback of a guarded change (issue 42): the same rollback
 * lifecycle as a person's (change.rollback's plan: preview text and the guard
 * against a target that moved; its apply: the atomic claim on the original,
 * one rollback of a change ever writes), requested and confirmed by
 * Harbormaster on behalf of the policy rule that set the guard, so no second
 * approval is asked. Its id is derived from the original's, so however many
 * replicas try, one rollback change exists; a moved target writes nothing.
 */
import { UserError } from '../../errors/user-error.js';
import { type Change, toChange } from '../change.js';
import { type GuardOutcome, guardOutcomeOf } from '../guard-outcome.js';
import { changeRollbackInput } from '../operations/change.rollback/operation.js';
import { operationModule } from '../operations/index.js';
import type { Applier } from './apply.js';
import type { EngineCore } from './core.js';

/** Who acts for a guard: the bot itself, as the audit names it. */
export const GUARD_ACTOR = 'harbormaster';

/** How long the rollback change stays open if its apply never starts (it is applied at once). */
const ROLLBACK_EXPIRES_MS = 10 * 60_000;

/** The id of the rollback a guard makes of change `changeId`: one per original, whoever asks. */
export const guardRollbackId = (changeId: string): string => `${changeId}-guard`;

/** What a guard's rollback came to: written, or nothing written and why (in words a person reads). */
export type GuardRollback =
  | { kind: 'rolled_back'; rollback: Change }
  | { kind: 'held'; reason: string; rollback?: Change }
  /** The apply ended without a clear answer: housekeeping's recovery settles the rollback; asked again next pass. */
  | { kind: 'unsettled'; rollback: Change };

export class GuardRollbacks {
  constructor(
    private readonly core: EngineCore,
    private readonly applier: Applier,
  ) {}

  /** Rolls `original` back for its guard, which saw `trigger`; once per original across replicas. */
  async rollBack(original: Change, trigger: string): Promise<GuardRollback> {
    const rule = original.guard?.rule ?? original.requirement.rule;
    const id = guardRollbackId(original.id);
    const existing = (await this.core.get(id)) ?? (await this.create(original, id, rule, trigger));
    if ('reason' in existing) return existing;
    return this.settle(existing);
  }

  /** Records how the guard of `change` ended on the change and tells whoever shows it; undefined when already recorded. */
  async end(changeId: string, outcome: GuardOutcome, rollback?: Change): Promise<Change | undefined> {
    const change = await this.core.get(changeId);
    if (!change?.result || guardOutcomeOf(change)) return undefined;
    const updated = await this.core.o.store.transitionChange(
      change.id,
      ['succeeded'],
      'succeeded',
      { result: { ...change.result, facts: { ...change.result.facts, guard: outcome } } },
      { now: change.updatedAt },
    );
    if (!updated) return undefined;
    const ended = toChange(updated, change.approvals);
    this.core.publish({ kind: 'guarded', change: ended, outcome, ...(rollback ? { rollback } : {}) });
    return ended;
  }

  /** Plans and stores the rollback; the reason when the plan refuses (a moved target: nothing is stored). */
  private async create(
    original: Change,
    id: string,
    rule: string,
    trigger: string,
  ): Promise<Change | { kind: 'held'; reason: string }> {
    const { store } = this.core.o;
    const asked = changeRollbackInput(original.id);
    const module = operationModule(asked.operation);
    const request = module.parse(asked.input);
    let preview: Awaited<ReturnType<typeof module.plan>>;
    try {
      preview = await module.plan(this.core.context(), request);
    } catch (err) {
      if (err instanceof UserError) return { kind: 'held', reason: err.message };
      throw err;
    }
    const now = this.core.now();
    const origin = {
      workspace: original.origin.workspace,
      channel: original.origin.channel,
      // Its messages go in the original's thread, where the people who made the change look.
      ...(original.origin.threadTs || original.origin.messageTs
        ? { threadTs: (original.origin.threadTs ?? original.origin.messageTs) as string }
        : {}),
    };
    try {
      await store.createChange({
        id,
        operation: asked.operation,
        request,
        preview: {
          preview,
          requirement: { mode: 'confirm', rule, expiresInMs: ROLLBACK_EXPIRES_MS },
          target: {},
        },
        requester: GUARD_ACTOR,
        origin,
        status: 'pending',
        createdAt: now,
        updatedAt: now,
        expiresAt: now + ROLLBACK_EXPIRES_MS,
        applyToken: id,
      });
    } catch (err) {
      // Another replica stored it first (the id is the original's): go on with theirs.
      const theirs = await this.core.get(id);
      if (theirs) return theirs;
      throw err;
    }
    const detail = `automatic rollback by guard, trigger: ${trigger}`;
    await this.core.audit({
      at: now,
      changeId: id,
      actor: GUARD_ACTOR,
      action: 'request',
      operation: asked.operation,
      params: request,
      origin,
      outcome: detail,
      detail: { rule, guardOf: original.id, trigger, summary: preview.summary },
    });
    await this.core.audit({
      at: now,
      changeId: original.id,
      actor: GUARD_ACTOR,
      action: 'guard_triggered',
      operation: original.operation,
      origin: original.origin,
      outcome: detail,
      detail: { rule, rollbackId: id, trigger },
    });
    return (await this.core.get(id)) as Change;
  }

  /** Applies the stored rollback if nobody has, and says what it came to. */
  private async settle(rollback: Change): Promise<GuardRollback> {
    let current = rollback;
    if (current.status === 'pending') {
      const outcome = await this.applier.claimAndApply(current, GUARD_ACTOR, ['pending'], 'confirm');
      current = outcome.change;
      if (outcome.kind === 'refused') return { kind: 'held', reason: outcome.message, rollback: current };
    }
    if (current.status === 'succeeded') return { kind: 'rolled_back', rollback: current };
    if (current.status === 'failed') {
      const failure = current.error;
      const reason =
        failure?.kind === 'user'
          ? failure.text
          : `its rollback (change ${current.id}) failed; nothing is known to be written (see that change).`;
      return { kind: 'held', reason, rollback: current };
    }
    if (current.status === 'cancelled' || current.status === 'expired')
      return {
        kind: 'held',
        reason: `its rollback (change ${current.id}) was ${current.status} before it applied.`,
        rollback: current,
      };
    return { kind: 'unsettled', rollback: current };
  }
}
