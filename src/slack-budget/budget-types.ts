/** The vocabulary of the Slack call budget (see budget.ts), apart so callers can import it alone. */
import type { Clock } from '../runtime/clock.js';

export type MessageMethod = 'chat.update' | 'chat.postMessage';

export interface BudgetOptions {
  clock: Clock;
  /** chat.update calls a minute over the workspace (default 45, a margin under Tier 3's 50). */
  updatesPerMinute?: number;
  /** chat.update calls allowed back to back (default 3; any 60 s then holds at most 45 + 3). */
  updateBurst?: number;
  /** chat.postMessage calls a minute over the workspace (default 100). */
  postsPerMinute?: number;
  /** chat.postMessage calls allowed back to back over the workspace (default 3). */
  postBurst?: number;
  /** Least time between two posts in one channel (default 1000). */
  postSpacingMs?: number;
}

export interface AcquireRequest {
  method: MessageMethod;
  channel: string;
  /** Who is asking (e.g. one tail's id); one slot waited for at a time each. */
  consumer: string;
  /**
   * Whose turn the slot spends (default the consumer); fairness is between these. A tail's
   * part freezes spend the tail's own turn: as consumers of their own they jumped the queue.
   */
  share?: string;
  signal?: AbortSignal;
}

/** A consumer asked for a second slot of a method while its first was still waiting. */
export class BudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetError';
  }
}

export interface BudgetStats {
  /** Slots granted per consumer (both methods). */
  granted: Record<string, number>;
  grantedByMethod: Record<MessageMethod, number>;
  /** Time granted requests spent waiting. */
  waits: { count: number; totalMs: number; maxMs: number };
  waiting: Record<MessageMethod, number>;
  /** Until when a 429 paused each method (absent when not paused now). */
  pausedUntil: Partial<Record<MessageMethod, number>>;
}

/** What a tail writes: an edit of its message, or a post (its first message, a rollover, a notice). */
export type TailWrite = 'edit' | 'post';

/** A slot a tail asks its pacer for. */
export interface PaceRequest {
  write: TailWrite;
  channel: string;
  /** Who is asking (e.g. one tail's id); one slot waited for at a time each. */
  consumer: string;
  /** Whose turn the slot spends (default the consumer); fairness is between these. */
  share?: string;
  signal?: AbortSignal;
}

/** The workspace's fair queue of tails' writes (tail-pacer.ts over a MessageBudget; the Slack bot's is its gateway's). */
export interface TailPacer {
  /** Resolves when the consumer may write; rejects with the signal's reason when aborted. */
  acquire(request: PaceRequest): Promise<void>;
  /** The surface answered 429: no tail writes this kind before retryAfterMs. */
  rateLimited(write: TailWrite, retryAfterMs: number): void;
  /** Drops a finished consumer's bookkeeping. */
  forget(consumer: string): void;
  close(): void;
  idle(): Promise<void>;
  readonly busy: boolean;
  stats(): BudgetStats;
}
