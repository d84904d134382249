/**
 * How a tail retries Slack calls that failed for a reason other than a 429
 * (those the budget paces): the client's one backoff function (exponential,
 * with jitter so replicas that failed together do not retry together) on the
 * tail's clock, and a bounded number of tries for the writes at the very end
 * of a tail.
 */
import { backoffDelayMs, type RetryPolicy } from '../gamefabric/retry.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';

/** A tail's waits: about 1 s doubling to 30 s; attempts are bounded by the caller, not here. */
const TAIL_RETRY: RetryPolicy = {
  maxAttempts: Number.POSITIVE_INFINITY,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
};

/** The wait before retry number `failures` (between half and all of 1 s doubling to 30 s). */
export function retryDelay(failures: number, random: () => number = Math.random): number {
  return backoffDelayMs(Math.max(1, failures), TAIL_RETRY, random);
}

/** Tries `step` up to `attempts` times with retryDelay between; false when it never worked or `signal` aborted. */
export async function tryAFewTimes(
  step: () => Promise<void>,
  options: {
    signal: AbortSignal;
    clock: Clock;
    log: Logger;
    what: string;
    attempts?: number;
    random?: () => number;
  },
): Promise<boolean> {
  const { signal, clock, log, what } = options;
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; attempt <= attempts && !signal.aborted; attempt++) {
    try {
      await step();
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      log.warn(`${what} failed`, { error, attempt });
      if (attempt < attempts)
        await clock.sleep(retryDelay(attempt, options.random), signal).catch(() => undefined);
    }
  }
  return false;
}
