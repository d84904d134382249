/**
 * How a tail service is set up: its edges (store, the surface that shows tails), this
 * replica's id, and the tunables with their defaults (two hours at most per
 * tail, 15 s leases renewed every 5 s, an orphan scan every 5 s).
 */
import type { Clock } from '../runtime/clock.js';
import type { ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { BudgetOptions } from '../slack-budget/budget.js';
import type { SharedSlots } from '../slack-budget/shared-slots.js';
import type { LeaseStore, TailRecord, TailStore } from '../store/types.js';
import type { TailPacer } from './messenger.js';
import type { TailHooks, TailWorker } from './owned-tail.js';
import type { TailProgress } from './progress.js';
import type { TailStopReason } from './stop-reason.js';
import type { TailStartInput } from './types.js';

export interface TailServiceOptions {
  store: TailStore & LeaseStore;
  /** Where tails are shown (the Slack layer): their messages and the loop that draws them. */
  surface: TailSurface;
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
  /** Per-workspace budget settings (default: TailPacer's, 45 updates a minute). */
  budget?: Omit<BudgetOptions, 'clock'>;
  /**
   * A workspace's Slack slots as every replica shares them (the bot: through the store), so
   * N replicas together stay within the workspace's limits; absent, this replica is alone.
   */
  sharedSlots?: (workspace: string) => SharedSlots;
  /**
   * The tails' fair queue of a workspace, when another part owns it (the bot: its Slack gateway);
   * absent, the service makes one per workspace from `budget` and `sharedSlots`.
   */
  budgets?: (workspace: string) => TailPacer;
  /** Told when a tail of a release is started here, or recorded as stopped by this replica, whatever stopped it. */
  releaseEvents?: ReleaseEvents;
}

/** Tunables shared by every tail of a service. */
export interface TailLimits {
  maxDurationMs: number;
  /** Reconnect backoff of the log stream. */
  backoff: { initialMs: number; maxMs: number };
  /** Consecutive fruitless reconnects before giving up (default: none, until the max duration). */
  maxReconnects?: number;
  /** Recent lines shown when a tail starts (a resumed tail asks for none). */
  initialTailLines: number;
  /** Bounds of each tail's ring buffer. */
  ring: { maxLines: number; maxChars: number };
  /** Messages one tail may post before its last one only scrolls. */
  maxMessages: number;
}

/** What the service needs to run one tail here. */
interface TailWorkerSpec {
  record: TailRecord;
  progress: TailProgress;
  /** Set when this replica takes the tail over from another. */
  takenOverBy?: string;
  budget: TailPacer;
  limits: TailLimits;
  hooks: TailHooks;
}

/**
 * The platform side of tails: the service decides when (leases, records,
 * takeovers, stops); the surface posts the messages and runs the loop that
 * draws the lines, spending the workspace's budget.
 */
export interface TailSurface {
  /**
   * Posts a new tail's first message (and its parent, without a thread);
   * where they went, with `parentTs` when it posted the parent itself.
   */
  open(
    tailId: string,
    input: TailStartInput,
    budget: TailPacer,
  ): Promise<{ threadTs: string; messageTs: string; parentTs?: string }>;
  /**
   * Redraws the parent a stopped tail posted itself, saying why and when it
   * stopped. One edit per tail, outside the budget: the budget paces live
   * lines and may be spent (or waiting on a clock) right when the tail stops.
   */
  closeParent?(record: TailRecord, parentTs: string, reason: TailStopReason, at: number): Promise<void>;
  /** Says in the tail's thread that this replica carries it on. */
  announceTakeover(record: TailRecord, budget: TailPacer): Promise<void>;
  /** The loop of one tail running here. */
  worker(spec: TailWorkerSpec): TailWorker;
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
