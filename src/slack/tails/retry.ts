/**
 * How a tail retries Slack calls that failed for a reason other than a 429
 * (those the budget paces): exponential delays on the tail's clock, and a
 * bounded number of tries for the writes at the very end of a tail.
 */
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';

const MAX_DELAY_MS = 30_000;

/** The wait before retry number `failures` (1 s, doubling, at most 30 s). */
export function retryDelay(failures: number): number {
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** Math.max(0, failures - 1));
}

/** Tries `step` up to `attempts` times with retryDelay between; false when it never worked or `signal` aborted. */
export async function tryAFewTimes(
  step: () => Promise<void>,
  options: { signal: AbortSignal; clock: Clock; log: Logger; what: string; attempts?: number },
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
      if (attempt < attempts) await clock.sleep(retryDelay(attempt), signal).catch(() => undefined);
    }
  }
  return false;
}
