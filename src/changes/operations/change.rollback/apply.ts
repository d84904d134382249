/**
 * The rollback's apply and verify. Apply, per original and newest first:
 * claim it in the ledger (one rollback of a change ever writes), check the
 * window and the guard again, and write the inverse guarded by what the
 * original left; the first refusal stops the rest. Verify, after an
 * interruption, asks the first inverse's restore whether it landed.
 */
import { ApiError } from '../../../gamefabric/client.js';
import { WorldMovedError } from '../../errors.js';
import type { OperationContext, Preview, Result } from '../../operation.js';
import { alreadyRolledBack, ineligible } from '../../rollback/eligibility.js';
import { imageGone } from '../../rollback/image-kept.js';
import type { RollbackLedger } from '../../rollback/ledger.js';
import { InverseMovedError } from '../../rollback/restore.js';
import { inverseFor, viewOf } from '../../rollback/undone-by.js';
import { writeInverse } from '../../rollback/write-inverse.js';
import { ledgerOf, type RollbackItem, rollbackItems, type Skipped } from './items.js';
import { type RollbackOutcome, resultLines } from './outcome.js';
import { claimedElsewhere, goneReason, movedReason } from './refusals.js';

/** Applies the previewed rollback as change `self`, which claims the originals in its own name. */
export async function applyRollback(ctx: OperationContext, preview: Preview, self: string): Promise<Result> {
  const ledger = ledgerOf(ctx);
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
}

/** Whether the first (newest) inverse landed, read through its restore. */
export async function verifyRollback(
  ctx: OperationContext,
  preview: Preview,
): Promise<'applied' | 'not_applied'> {
  const first = rollbackItems(preview)[0];
  if (!first) return 'not_applied';
  const { restore, request } = inverseFor(first);
  return (await restore.restored(ctx, request)) ? 'applied' : 'not_applied';
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
