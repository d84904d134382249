/**
 * How long polling pauses after an API failure: the API's Retry-After when it
 * gives one, else twice the interval, doubling with each failure in a row, at
 * most ten minutes. A pause is kept in the store, so whichever replica polls
 * next keeps it and `/harbor watches` can say it.
 */

const MAX_PAUSE_MS = 10 * 60_000;

/** The pause after the `failures`-th failure in a row (1 for the first). */
export function pauseAfter(failures: number, intervalMs: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs > 0) return Math.min(retryAfterMs, MAX_PAUSE_MS);
  return Math.min(intervalMs * 2 ** Math.min(failures, 10), MAX_PAUSE_MS);
}
