/** The rollback ledger on the change store: reads, the atomic claim, and the audit line on the original. */
import type { ChangeRecord, ChangeStore } from '../../store/types.js';
import type { LedgerEntry, RollbackLedger } from './ledger.js';
import type { Undo } from './undo.js';

/** Seven days: how long Roll back is offered when HARBOR_ROLLBACK_DAYS is not set. */
export const DEFAULT_ROLLBACK_WINDOW_MS = 7 * 86_400_000;

function entryOf(r: ChangeRecord): LedgerEntry {
  const summary =
    (r.result as { summary?: string } | undefined)?.summary ??
    (r.preview as { preview?: { summary?: string } } | undefined)?.preview?.summary ??
    r.operation;
  return {
    id: r.id,
    operation: r.operation,
    requester: r.requester,
    status: r.status,
    origin: r.origin,
    summary,
    ...(r.appliedAt !== undefined ? { appliedAt: r.appliedAt } : {}),
    ...(r.undo ? { undo: r.undo as Undo } : {}),
    ...(r.rolledBackBy ? { rolledBackBy: r.rolledBackBy } : {}),
    ...(r.rolledBackAt !== undefined ? { rolledBackAt: r.rolledBackAt } : {}),
  };
}

interface LedgerOptions {
  store: ChangeStore;
  windowMs: number;
  now: () => number;
  /** Writes the audit line on the original (the engine's audit, which never throws). */
  auditRolledBack(originalId: string, rollbackId: string): Promise<void>;
}

/** A ledger reading and claiming through `store`. */
export function storeLedger(o: LedgerOptions): RollbackLedger {
  return {
    windowMs: o.windowMs,
    get: async (id) => {
      const r = await o.store.getChange(id);
      return r && entryOf(r);
    },
    appliedSince: async (since) => {
      // Created up to one window earlier may still have applied after `since`.
      const records = await o.store.listChanges({
        status: ['succeeded'],
        createdAfter: since - o.windowMs,
        limit: 1000,
      });
      return records.filter((r) => r.undo && (r.appliedAt ?? 0) > since).map(entryOf);
    },
    claim: async (originalId, rollbackId) =>
      (await o.store.claimRollback(originalId, rollbackId, o.now())) !== undefined,
    release: (originalId, rollbackId) => o.store.releaseRollback(originalId, rollbackId),
    noteRolledBack: (originalId, rollbackId) => o.auditRolledBack(originalId, rollbackId),
  };
}
