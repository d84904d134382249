/**
 * What one tail's loop (TailRunner) is given: which tail, the tunables every
 * tail of a service shares, its edges (log source, messenger and drawing,
 * budget, clock) and
 * the two store hooks it reports through.
 */
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { TailDrawing, TailMessenger, TailPacer, TailSubject } from './messenger.js';
import type { TailHooks } from './owned-tail.js';
import type { TailProgress } from './progress.js';
import type { TailLimits } from './service-options.js';
import type { TailLogSource } from './tail-stream.js';

/** Which tail, where: the record fields the loop needs. */
interface TailTarget extends TailSubject {
  id: string;
  channel: string;
  threadTs?: string;
  /** When the tail was started (the maximum duration counts from here, across takeovers). */
  startedAt: number;
}

export interface TailRunnerOptions<M> extends TailHooks {
  target: TailTarget;
  replicaId: string;
  /** Where to carry on from: a fresh tail's first message, or a taken-over tail's state. */
  progress: TailProgress;
  /** Set when taking over: a marker says so and no recent lines are asked for again. */
  takenOverBy?: string;
  source: TailLogSource;
  /** Posts and edits the tail's messages. */
  messenger: TailMessenger<M>;
  /** How those messages look. */
  drawing: TailDrawing<M>;
  budget: TailPacer;
  clock: Clock;
  logger: Logger;
  limits: TailLimits;
  /** Jitter for the stream's reconnect backoff (default Math.random). */
  random?: () => number;
}
