/**
 * How a tail service is set up: its edges (store, hosting API, Slack), this
 * replica's id, and the tunables with their defaults (two hours at most per
 * tail, 15 s leases renewed every 5 s, an orphan scan every 5 s).
 */
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { Store, TailRecord } from '../../store/types.js';
import type { BudgetOptions } from '../../tails/budget.js';
import type { TailLogSource } from '../../tails/tail-stream.js';
import type { TailSlack } from './slack-calls.js';

export interface TailServiceOptions {
  store: Store;
  /** The hosting API (log streams and Vessel lookups). */
  source: TailLogSource;
  /** Tails' own Slack client (see webApiTailSlack). */
  slack: TailSlack;
  /** This replica's id (lease owner, named in takeover notices). */
  replicaId: string;
  logger: Logger;
  clock?: Clock;
  /** Tail ids (default random UUIDs). */
  newId?: () => string;
  /** Longest a tail runs, from its start (default 2 h). */
  maxDurationMs?: number;
  /** Lease lifetime (default 15 s), renewal period (default 5 s) and orphan scan period (default 5 s). */
  leaseTtlMs?: number;
  renewMs?: number;
  scanMs?: number;
  /** Log stream reconnect backoff (default 1 s doubling to 30 s). */
  backoff?: { initialMs: number; maxMs: number };
  maxReconnects?: number;
  /** Recent lines a new tail shows first (default 20). */
  initialTailLines?: number;
  /** Ring bounds per tail (default 2000 lines, 256 KiB of text). */
  ring?: { maxLines: number; maxChars: number };
  /** Messages per tail before the last one only scrolls (default 10). */
  maxMessages?: number;
  /** Per-workspace budget settings (default: SlackBudget's, 45 updates a minute). */
  budget?: Omit<BudgetOptions, 'clock'>;
  /** Told after any tail this replica ran is recorded as stopped (e.g. to redraw its release message). */
  onStopped?: (record: TailRecord) => Promise<void>;
  /** Jitter for reconnect backoff (default Math.random). */
  random?: () => number;
}

/** What a tail service uses for the options left out. */
export const TAIL_DEFAULTS = {
  maxDurationMs: 2 * 60 * 60_000,
  leaseTtlMs: 15_000,
  renewMs: 5_000,
  scanMs: 5_000,
  backoff: { initialMs: 1_000, maxMs: 30_000 },
  initialTailLines: 20,
  ring: { maxLines: 2_000, maxChars: 256 * 1024 },
  maxMessages: 10,
};
