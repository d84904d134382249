/**
 * The rollback's plan: reads each original from the ledger, leaves out (or,
 * for a single change, refuses) those that may not be rolled back, runs each
 * inverse's guard so the preview says before -> after and which will be
 * refused, and words the preview newest first.
 */
import { UserError } from '../../../errors/user-error.js';
import { formatUtcMinute } from '../../../format/time.js';
import { WorldMovedError } from '../../errors.js';
import type { Line, OperationContext, Preview } from '../../operation.js';
import type { RollbackRequest } from '../../requests/rollback.js';
import { ineligible } from '../../rollback/eligibility.js';
import { imageGone } from '../../rollback/image-kept.js';
import { type InverseEffects, NO_EFFECTS } from '../../rollback/restore.js';
import { inverseFor, viewOf } from '../../rollback/undone-by.js';
import { entries, itemOf, ledgerOf, type RollbackItem, type Skipped } from './items.js';
import { claimedElsewhere, goneReason, movedReason, rollbackMessage } from './refusals.js';

export async function planRollback(ctx: OperationContext, r: RollbackRequest): Promise<Preview> {
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
}
