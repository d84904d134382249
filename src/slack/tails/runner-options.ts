/**
 * What one tail's loop (TailRunner) is given: which tail, the tunables every
 * tail of a service shares, its edges (log source, Slack, budget, clock) and
 * the two store hooks it reports through.
 */
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { SlackBudget } from '../../tails/budget.js';
import type { TailStopReason } from '../../tails/stop-reason.js';
import type { TailLogSource } from '../../tails/tail-stream.js';
import type { TailSubject } from '../render/tail-message.js';
import type { TailProgress } from './progress.js';
import type { TailSlack } from './slack-calls.js';

/** Which tail, where: the record fields the loop needs. */
export interface TailTarget extends TailSubject {
  id: string;
  channel: string;
  threadTs?: string;
  /** When the tail was started (the maximum duration counts from here, across takeovers). */
  startedAt: number;
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

export interface TailRunnerOptions {
  target: TailTarget;
  replicaId: string;
  /** Where to carry on from: a fresh tail's first message, or a taken-over tail's state. */
  progress: TailProgress;
  /** Set when taking over: a marker says so and no recent lines are asked for again. */
  takenOverBy?: string;
  source: TailLogSource;
  slack: TailSlack;
  budget: SlackBudget;
  clock: Clock;
  logger: Logger;
  limits: TailLimits;
  /** Jitter for the stream's reconnect backoff (default Math.random). */
  random?: () => number;
  /** Persists progress after each Slack call (errors are logged, the tail goes on). */
  save(progress: TailProgress): Promise<void>;
  /** Marks the tail stopped in the store, after the final message. */
  finish(progress: TailProgress, reason: TailStopReason): Promise<void>;
}
