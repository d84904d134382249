/**
 * `/harbor history`: recent changes read from the audit log, newest first.
 * Each change's outcome is one audit entry (applied, failed, rejected,
 * cancelled, expired, recovered); the change record adds what it was and
 * where its message is. Paging goes back by audit id, so a page never
 * repeats or skips an entry however many are written meanwhile.
 */

import { TARGET_FIELDS } from '../policy/operations.js';
import type { ApprovalStore, AuditEntry, AuditStore, ChangeStore } from '../store/types.js';
import { type Change, toChange } from './change.js';

/** The audit actions that end a change: one per change. */
const OUTCOME_ACTIONS = ['apply', 'reject', 'cancel', 'expire', 'recover'] as const;

const HISTORY_PAGE = 10;
// A filter that matches little must not read the whole log: a page looks this far back at most.
const MAX_SCANNED = 2000;
const BATCH = 100;

export interface HistoryItem {
  entry: AuditEntry;
  change: Change;
}

export interface HistoryPage {
  items: HistoryItem[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  before?: number;
  /** The log was read back MAX_SCANNED entries without filling the page. */
  scanLimited: boolean;
}

interface HistoryQuery {
  workspace: string;
  /** An environment or target name (formation, vessel, region, branch), any case. */
  filter?: string;
  /** Only entries older than this audit id. */
  before?: number;
}

/** The parts of the store history reads: the audit log, and the changes it names. */
type HistoryStore = Pick<AuditStore, 'queryAudit'> &
  Pick<ChangeStore, 'listChanges'> &
  Pick<ApprovalStore, 'listApprovalsFor'>;

/** One page of history for `q`, newest first. */
export async function historyPage(
  store: HistoryStore,
  q: HistoryQuery,
  size = HISTORY_PAGE,
): Promise<HistoryPage> {
  const items: HistoryItem[] = [];
  let cursor = q.before;
  let scanned = 0;
  const filter = q.filter?.toLowerCase();
  while (items.length <= size && scanned < MAX_SCANNED) {
    const batch = await store.queryAudit({
      actions: OUTCOME_ACTIONS,
      newestFirst: true,
      limit: BATCH,
      ...(cursor !== undefined ? { beforeId: cursor } : {}),
    });
    const changes = await changesOf(store, batch, q.workspace);
    for (const entry of batch) {
      scanned += 1;
      cursor = entry.id;
      const change = entry.changeId ? changes.get(entry.changeId) : undefined;
      if (!change) continue;
      if (filter && !TARGET_FIELDS.some((f) => change.target[f]?.toLowerCase() === filter)) continue;
      items.push({ entry, change });
      if (items.length > size) break;
    }
    if (batch.length < BATCH) break;
  }
  const more = items.length > size;
  const shown = items.slice(0, size);
  const last = shown.at(-1)?.entry.id;
  return {
    items: shown,
    ...(more && last !== undefined ? { before: last } : {}),
    scanLimited: !more && scanned >= MAX_SCANNED,
  };
}

// The changes a batch of audit entries of `workspace` names, with their approvals: two store reads, whatever the batch's size.
async function changesOf(
  store: HistoryStore,
  batch: readonly AuditEntry[],
  workspace: string,
): Promise<Map<string, Change>> {
  const ids = [
    ...new Set(
      batch.flatMap((e) => (e.changeId && (!e.workspace || e.workspace === workspace) ? [e.changeId] : [])),
    ),
  ];
  if (ids.length === 0) return new Map();
  const records = await store.listChanges({ ids });
  const approvals = await store.listApprovalsFor(records.map((r) => r.id));
  return new Map(records.map((r) => [r.id, toChange(r, approvals.get(r.id) ?? [])]));
}
