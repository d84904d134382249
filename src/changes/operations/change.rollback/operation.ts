/**
 * `change.rollback`: undo applied changes (one, or every change of a release
 * newest first) through the same lifecycle as any change. Plan reads each
 * original from the store, checks it may be rolled back, and reads its target
 * (the guard) so the preview says before -> after. Apply, per original and in
 * order: claim it in the store (one rollback of a change ever writes), check
 * the window and the guard again, and write the inverse guarded by what the
 * original left. The first refusal stops the rest; what was rolled back and
 * what not (and why) is the result. No force: a moved target is refused.
 */
import { type ErrorReference, UserError } from '../../../errors/user-error.js';
import { formatUtcMinute } from '../../../format/time.js';
import { ApiError } from '../../../gamefabric/client.js';
import type { ChangeOperation, Target } from '../../../policy/operations.js';
import { WorldMovedError } from '../../errors.js';
import type { Line, OperationContext, OperationModule, Preview } from '../../operation.js';
import { type RollbackRequest, rollbackSchema } from '../../requests/rollback.js';
import { parseRequest } from '../../requests/vocabulary.js';
import {
  alreadyRolledBack,
  ineligible,
  inverseOperation,
  SPENT_ROLLBACK,
} from '../../rollback/eligibility.js';
import { imageGone } from '../../rollback/image-kept.js';
import type { LedgerEntry, RollbackLedger } from '../../rollback/ledger.js';
import { type InverseEffects, InverseMovedError, NO_EFFECTS } from '../../rollback/restore.js';
import type { Undo } from '../../rollback/undo.js';
import { inverseFor, subjectKeyOf, viewOf } from '../../rollback/undone-by.js';
import { writeInverse } from '../../rollback/write-inverse.js';
import { CHANGE_ROLLBACK } from './id.js';

/** One original change as the rollback's preview stores it. */
export interface RollbackItem {
  changeId: string;
  operation: string;
  requester: string;
  appliedAt: number;
  /** What the original did, in words. */
  summary: string;
  /** What the inverse does, in words. */
  inverseSummary: string;
  undo: Undo;
  inverse: { operation: ChangeOperation; target: Target };
  origin: LedgerEntry['origin'];
  /** Set in a release preview when the guard already finds the target moved: this one will be refused. */
  moved?: string;
  /** Set in a release preview when the image it writes back is gone from its branch: this one will be refused. */
  gone?: string;
}

/** An original the release rollback leaves out, and why. */
interface Skipped {
  changeId: string;
  summary: string;
  reason: string;
}

/** What the rollback's result facts say, for the renderers and the release thread. */
export interface RollbackOutcome {
  rolledBack: string[];
  stopped?: { changeId: string; reason: string };
  notTried: string[];
  skipped: Skipped[];
}

function ledgerOf(ctx: OperationContext): RollbackLedger {
  if (!ctx.ledger) throw new Error('change.rollback needs the rollback ledger in its context');
  return ctx.ledger;
}

/** The items of a rollback preview (newest first). */
export function rollbackItems(preview: Preview): RollbackItem[] {
  return (preview.facts.items ?? []) as RollbackItem[];
}

/** The environments an item's inverse writes to: its target's, and a promotion's rolled-out targets'. */
function undoEnvironments(item: RollbackItem): string[] {
  const { restore, request } = inverseFor(item);
  const envs = restore.environments?.(request) ?? [];
  if (item.inverse.target.environment) envs.push(item.inverse.target.environment);
  return [...new Set(envs)];
}

/** The original changes a rollback request names, for the policy: change.rollback on each target, and each inverse. */
export async function rollbackJudgements(
  ctx: OperationContext,
  r: RollbackRequest,
): Promise<{ operation: ChangeOperation; target: Target }[]> {
  const ledger = ledgerOf(ctx);
  const out: { operation: ChangeOperation; target: Target }[] = [];
  for (const id of r.changeIds) {
    const entry = await ledger.get(id);
    const inverse = entry?.undo && inverseOperation(entry.operation);
    if (!entry?.undo || !inverse) continue;
    const view = viewOf({ operation: entry.operation, undo: entry.undo });
    // An inverse writing several targets (a promotion's fleets) is judged on each.
    for (const j of view.judgements ?? [{ operation: inverse, target: view.target }]) {
      out.push({ operation: CHANGE_ROLLBACK, target: j.target });
      out.push(j);
    }
    for (const target of view.judgedAsOriginal ?? []) {
      out.push({ operation: CHANGE_ROLLBACK, target });
      out.push({ operation: entry.operation as ChangeOperation, target });
    }
  }
  return out;
}

/** The refusal when the guard found the target moved: what changed, by whom when Harbormaster knows, and since when. */
async function movedReason(ledger: RollbackLedger, item: RollbackItem, now: string): Promise<string> {
  const key = subjectKeyOf(item);
  const later = (await ledger.appliedSince(item.appliedAt))
    .filter((e) => e.id !== item.changeId && subjectKeyOf(e) === key)
    .sort((a, b) => (b.appliedAt ?? 0) - (a.appliedAt ?? 0))[0];
  const by = later
    ? `set through Harbormaster by change ${later.id} at ${formatUtcMinute(later.appliedAt ?? 0)}: roll that one back first`
    : `set outside Harbormaster since ${formatUtcMinute(item.appliedAt)}, when that change applied`;
  return `Cannot roll back change ${item.changeId}: ${now}, ${by}. Nothing was changed; there is no force option, so make the change you want as a new change.`;
}

/** The refusal when the image an inverse writes back is gone from its branch. */
function goneReason(item: RollbackItem, gone: string): string {
  return `Cannot roll back change ${item.changeId}: ${gone}. Nothing was changed; roll out an image the branch has as a new change (/harbor images lists them).`;
}

async function entries(ledger: RollbackLedger, ids: readonly string[]): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  for (const id of ids) {
    const entry = await ledger.get(id);
    if (!entry)
      throw new UserError(`There is no change ${id} (see /harbor history for change ids).`, 'not_found');
    out.push(entry);
  }
  return out;
}

/** Why `entry` is already claimed by another live rollback, or undefined (a spent claim is given back). */
async function claimedElsewhere(
  ledger: RollbackLedger,
  entry: LedgerEntry,
  self?: string,
): Promise<string | undefined> {
  if (!entry.rolledBackBy || entry.rolledBackBy === self) return undefined;
  const holder = await ledger.get(entry.rolledBackBy);
  if (holder && SPENT_ROLLBACK.includes(holder.status)) {
    // That rollback ended without writing: its claim is free to take.
    await ledger.release(entry.id, holder.id);
    return undefined;
  }
  return alreadyRolledBack(entry, holder);
}

/** Where the rollback that holds `entry` was posted, so a refusal can link to it. */
async function rollbackMessage(
  ledger: RollbackLedger,
  entry: LedgerEntry,
): Promise<ErrorReference | undefined> {
  const holder = entry.rolledBackBy ? await ledger.get(entry.rolledBackBy) : undefined;
  const { channel, messageTs, threadTs } = holder?.origin ?? {};
  if (!holder || !channel || !messageTs) return undefined;
  return { label: `change ${holder.id}`, channel, messageTs, ...(threadTs ? { threadTs } : {}) };
}

function itemOf(entry: LedgerEntry): RollbackItem {
  const undo = entry.undo as Undo;
  const view = viewOf({ operation: entry.operation, undo });
  return {
    changeId: entry.id,
    operation: entry.operation,
    requester: entry.requester,
    appliedAt: entry.appliedAt ?? 0,
    summary: entry.summary,
    inverseSummary: view.summary,
    undo,
    inverse: { operation: inverseOperation(entry.operation) as ChangeOperation, target: view.target },
    origin: entry.origin,
  };
}

export const rollbackChange: OperationModule<RollbackRequest> = {
  parse: (input) => parseRequest(rollbackSchema, input),

  // The targets are the originals' (read from the store): the engine asks `judgements` instead.
  target: () => ({}),

  judgements: rollbackJudgements,

  // Where each inverse writes, with when its original was applied: a rollback of a change applied
  // before a freeze began is how one gets out of trouble, so that freeze lets it through.
  freezeScope: (_r, preview) => ({
    places: rollbackItems(preview).flatMap((item) =>
      undoEnvironments(item).map((env) => ({ env, undoesChangeAppliedAt: item.appliedAt })),
    ),
  }),

  async plan(ctx, r): Promise<Preview> {
    const ledger = ledgerOf(ctx);
    const now = ctx.clock.now();
    const single = r.changeIds.length === 1 && !r.releaseId;
    const items: RollbackItem[] = [];
    const skipped: Skipped[] = [];
    const effects = new Map<string, InverseEffects>();
    for (const entry of await entries(ledger, r.changeIds)) {
      const reason = ineligible(entry, now, ledger.windowMs) ?? (await claimedElsewhere(ledger, entry));
      if (reason) {
        if (single)
          throw new UserError(
            reason,
            reason.includes('already') ? 'noop' : 'refused',
            await rollbackMessage(ledger, entry),
          );
        skipped.push({ changeId: entry.id, summary: entry.summary, reason });
        continue;
      }
      const item = itemOf(entry);
      const { restore, request } = inverseFor(item);
      const finding = await restore.guard(ctx, request);
      if (finding.kind === 'moved') {
        const why = await movedReason(ledger, item, finding.now);
        if (single) throw new WorldMovedError(why);
        item.moved = why;
      } else {
        const gone = await imageGone(ctx, (await restore.imagesBack?.(ctx, request)) ?? []);
        if (gone) {
          const why = goneReason(item, gone);
          if (single) throw new UserError(why, 'refused');
          item.gone = why;
        }
      }
      // What the write does, in the forward preview's words, read from the target as the change left it.
      effects.set(
        item.changeId,
        item.moved || item.gone ? NO_EFFECTS : ((await restore.effects?.(ctx, request)) ?? NO_EFFECTS),
      );
      items.push(item);
    }
    if (items.length === 0) {
      throw new UserError(
        `Nothing in this release can be rolled back: ${skipped.map((s) => s.reason).join(' ')}`,
        'refused',
      );
    }
    // Newest first: a later change on the same target is undone before the one it followed.
    items.sort((a, b) => b.appliedAt - a.appliedAt);
    const views = items.map(viewOf);
    const effectsOf = items.map((i) => effects.get(i.changeId) ?? NO_EFFECTS);
    const first = items[0] as RollbackItem;
    const lines: Line[] = single
      ? [
          { label: 'Rolls back', value: `change ${first.changeId}: ${first.summary}` },
          { label: 'Made by', value: first.requester, person: true },
          { label: 'Applied', value: formatUtcMinute(first.appliedAt) },
          ...(views[0]?.lines ?? []),
          ...(effectsOf[0]?.lines ?? []),
        ]
      : items.map((i, n) => ({
          label: `${n + 1}. Change ${i.changeId}`,
          value: `${i.inverseSummary}${
            i.moved
              ? ' (will be refused: its target moved)'
              : i.gone
                ? ' (will be refused: the image it sets back is gone from its branch)'
                : ''
          }`,
        }));
    const notSetBack = views.flatMap((v) => v.notSetBack ?? []);
    return {
      summary: single
        ? `Roll back change ${first.changeId}: ${first.inverseSummary}`
        : `Roll back ${items.length} ${items.length === 1 ? 'change' : 'changes'} of this release, newest first`,
      lines,
      notes: [
        ...new Set([...views.flatMap((v) => v.notes), ...effectsOf.flatMap((e) => e.notes)]),
        ...(single ? [] : ['They apply one by one in this order; the first that is refused stops the rest.']),
        ...items.flatMap((i) => (i.moved ? [i.moved] : i.gone ? [i.gone] : [])),
      ],
      ...(skipped.length || notSetBack.length
        ? {
            lists: [
              ...(notSetBack.length ? [{ title: 'Not set back', items: notSetBack }] : []),
              ...(skipped.length ? [{ title: 'Not rolled back', items: skipped.map((s) => s.reason) }] : []),
            ],
          }
        : {}),
      destructive: views.some((v) => v.destructive),
      warnings: [...views.flatMap((v) => v.warnings), ...effectsOf.flatMap((e) => e.warnings)],
      facts: { items, skipped },
    };
  },

  async apply(ctx, { preview, changeId }) {
    const ledger = ledgerOf(ctx);
    const self = changeId as string;
    const items = rollbackItems(preview);
    const outcome: RollbackOutcome = {
      rolledBack: [],
      notTried: [],
      skipped: (preview.facts.skipped ?? []) as Skipped[],
    };
    const done: string[] = [];
    for (const [n, item] of items.entries()) {
      let reason: string | undefined;
      try {
        reason = await applyOne(ctx, ledger, item, self);
      } catch (err) {
        // The first write failing is the whole rollback's failure (the engine settles an unclear one).
        if (n === 0) throw err;
        reason = `Cannot roll back change ${item.changeId}: the API failed (${err instanceof Error ? err.message : String(err)}).`;
      }
      if (reason) {
        if (n === 0) throw new WorldMovedError(reason);
        outcome.stopped = { changeId: item.changeId, reason };
        outcome.notTried = items.slice(n + 1).map((i) => i.changeId);
        break;
      }
      outcome.rolledBack.push(item.changeId);
      done.push(item.inverseSummary);
    }
    const single = items.length === 1;
    return {
      summary: single
        ? `Rolled back change ${items[0]?.changeId}: ${done[0]}`
        : `Rolled back ${outcome.rolledBack.length} of ${items.length} changes of this release`,
      lines: [
        ...(single ? [] : resultLines(items, outcome)),
        // What the rolled-back originals changed that no write set back, named again in the result.
        ...items
          .filter((i) => outcome.rolledBack.includes(i.changeId))
          .flatMap((i) => viewOf(i).notSetBack ?? [])
          .map((value) => ({ label: 'Not set back', value })),
      ],
      // A release rollback that stopped part way is not "Done": its message and history say so.
      facts: { ...outcome, ...(outcome.stopped ? { partial: true } : {}) },
    };
  },

  async verify(ctx, { preview }) {
    const first = rollbackItems(preview)[0];
    if (!first) return 'not_applied';
    const { restore, request } = inverseFor(first);
    return (await restore.restored(ctx, request)) ? 'applied' : 'not_applied';
  },
};

/** One line per original: rolled back, refused (why), or not tried. */
function resultLines(items: readonly RollbackItem[], o: RollbackOutcome): Line[] {
  return items.map((i) => ({
    label: `Change ${i.changeId}`,
    value: o.rolledBack.includes(i.changeId)
      ? `rolled back: ${i.inverseSummary}`
      : o.stopped?.changeId === i.changeId
        ? `not rolled back: ${underItsLabel(o.stopped.reason, i.changeId)}`
        : `not rolled back: not tried, the rollback stopped at change ${o.stopped?.changeId}`,
  }));
}

/**
 * A refusal worded to stand alone ("Cannot roll back change X: ...", "Change X was ...") as it
 * reads on the line already labelled "Change X": the id is not said twice.
 */
function underItsLabel(reason: string, changeId: string): string {
  const cannot = `Cannot roll back change ${changeId}: `;
  if (reason.startsWith(cannot)) return reason.slice(cannot.length);
  const subject = `Change ${changeId} `;
  return reason.startsWith(subject) ? `it ${reason.slice(subject.length)}` : reason;
}

/** Claims, re-checks and writes one inverse; the refusal in words, or undefined when it was written. */
async function applyOne(
  ctx: OperationContext,
  ledger: RollbackLedger,
  item: RollbackItem,
  self: string,
): Promise<string | undefined> {
  const entry = await ledger.get(item.changeId);
  if (!entry) return `Change ${item.changeId} no longer exists.`;
  const elsewhere = await claimedElsewhere(ledger, entry, self);
  if (elsewhere) return elsewhere;
  if (!(await ledger.claim(item.changeId, self))) {
    return alreadyRolledBack(entry, entry.rolledBackBy ? await ledger.get(entry.rolledBackBy) : undefined);
  }
  const reason = ineligible(entry, ctx.clock.now(), ledger.windowMs);
  const refuse = async (why: string) => {
    await ledger.release(item.changeId, self);
    return why;
  };
  if (reason) return refuse(reason);
  const inverse = inverseFor(item);
  const finding = await inverse.restore.guard(ctx, inverse.request);
  if (finding.kind === 'moved') return refuse(await movedReason(ledger, item, finding.now));
  const gone = await imageGone(ctx, (await inverse.restore.imagesBack?.(ctx, inverse.request)) ?? []);
  if (gone) return refuse(goneReason(item, gone));
  try {
    await writeInverse(ctx, inverse);
  } catch (err) {
    if (err instanceof InverseMovedError) return refuse(await movedReason(ledger, item, err.now));
    // A definite refusal by the API wrote nothing: the claim goes back. An unclear end keeps it.
    if (err instanceof ApiError && err.status >= 400 && err.status < 500)
      await ledger.release(item.changeId, self);
    throw err;
  }
  await ledger.noteRolledBack(item.changeId, self);
  return undefined;
}

/** Whether `operation` is a rollback (which a release rollback leaves out: a rollback is not rolled back). */
export function isRollback(operation: string): boolean {
  return operation === CHANGE_ROLLBACK;
}

/** The request that rolls back `changeIds`, every applied change of release `releaseId`. */
export function releaseRollbackInput(
  changeIds: string[],
  releaseId: string,
): { operation: typeof CHANGE_ROLLBACK; input: RollbackRequest } {
  return { operation: CHANGE_ROLLBACK, input: { changeIds, releaseId } };
}

/** The request that rolls back the one change `changeId` (a guard's automatic rollback, issue 42). */
export function changeRollbackInput(changeId: string): {
  operation: typeof CHANGE_ROLLBACK;
  input: RollbackRequest;
} {
  return { operation: CHANGE_ROLLBACK, input: { changeIds: [changeId] } };
}
