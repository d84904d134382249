/**
 * Why a rollback refuses an original, in words that stand alone: its target
 * moved since (and by whom, when Harbormaster knows), the image it would set
 * back is gone, or another live rollback already claimed it (with a link to
 * that rollback's message). Read by the preview and again by the apply.
 */
import type { ErrorReference } from '../../../errors/user-error.js';
import { formatUtcMinute } from '../../../format/time.js';
import { alreadyRolledBack, SPENT_ROLLBACK } from '../../rollback/eligibility.js';
import type { LedgerEntry, RollbackLedger } from '../../rollback/ledger.js';
import { subjectKeyOf } from '../../rollback/undone-by.js';
import type { RollbackItem } from './items.js';

/** The refusal when the guard found the target moved: what changed, by whom when Harbormaster knows, and since when. */
export async function movedReason(ledger: RollbackLedger, item: RollbackItem, now: string): Promise<string> {
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
export function goneReason(item: RollbackItem, gone: string): string {
  return `Cannot roll back change ${item.changeId}: ${gone}. Nothing was changed; roll out an image the branch has as a new change (/harbor images lists them).`;
}

/** Why `entry` is already claimed by another live rollback, or undefined (a spent claim is given back). */
export async function claimedElsewhere(
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
export async function rollbackMessage(
  ledger: RollbackLedger,
  entry: LedgerEntry,
): Promise<ErrorReference | undefined> {
  const holder = entry.rolledBackBy ? await ledger.get(entry.rolledBackBy) : undefined;
  if (!holder) return undefined;
  const { channel, threadTs } = holder.origin;
  return { label: `change ${holder.id}`, changeId: holder.id, channel, ...(threadTs ? { threadTs } : {}) };
}
