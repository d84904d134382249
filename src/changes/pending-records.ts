/**
 * Settlements an apply could not store. Once the hosting API has answered,
 * what happened is known; if the bot's database then fails, telling the user
 * to "try again" would repeat a write that landed. The apply reports its
 * outcome with the recording pending and leaves the settlement here; every
 * housekeeping pass writes what is held as soon as the store takes it. If the
 * process dies first, the change is still `applying` in the store and its
 * lease lapses, so recovery (any replica) reads the API and settles it.
 */
import type { Change } from './change.js';
import type { Settlement } from './settle-outcome.js';

/** One settlement waiting for the store. */
export interface PendingRecord {
  change: Change;
  settled: Settlement;
  actor: string;
  action: 'apply' | 'recover';
}

/** This process's unrecorded settlements, by change id. */
export class PendingRecords {
  private readonly held = new Map<string, PendingRecord>();

  hold(record: PendingRecord): void {
    this.held.set(record.change.id, record);
  }

  /** The held settlements, oldest first. */
  list(): PendingRecord[] {
    return [...this.held.values()];
  }

  drop(changeId: string): void {
    this.held.delete(changeId);
  }
}

/** `change` as the settlement leaves it, marked as not yet stored (for the message and the clicker). */
export function asSettled(change: Change, settled: Settlement, now: number): Change {
  const base = { ...change, updatedAt: now, recordPending: true as const };
  if (settled.status === 'succeeded') return { ...base, status: 'succeeded', result: settled.result };
  if (settled.status === 'failed') return { ...base, status: 'failed', error: settled.failure };
  return { ...base, error: settled.failure };
}
