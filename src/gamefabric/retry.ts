/**
 * Retry policy: which failures are worth repeating and how long to wait.
 * Pure functions (no clock, no I/O), so every rule is unit-tested directly.
 */

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 5000 };

/**
 * A server asking us to come back later than this is not waited for inside
 * one request (a chat-op should not hang for minutes); the 429 goes to the
 * caller with its `retryAfterMs` instead.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * How a request may be repeated:
 * - `idempotent`: reads, and the ImagePromotion POST (its caller-chosen name
 *   makes a repeat harmless). Retried on network failure or timeout (status 0),
 *   429, 502, 503 and 504.
 * - `refused-only`: other writes. A timeout or a 502-504 does not tell us
 *   whether the write happened, so repeating it could create or delete twice
 *   or apply a patch on top of itself; only a 429 (refused before any
 *   processing) is safe to repeat.
 */
export type RetryMode = 'idempotent' | 'refused-only';

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Fills unset policy fields with the defaults; maxAttempts is at least 1. */
export function resolveRetryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    maxAttempts: Math.max(1, Math.floor(partial.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts)),
    baseDelayMs: Math.max(0, partial.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs),
    maxDelayMs: Math.max(0, partial.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs),
  };
}

/** Whether a failure with this status may be retried under `mode` (status 0 = no response; `aborted` = the caller cancelled). */
export function isRetryable(mode: RetryMode, status: number, aborted = false): boolean {
  if (aborted) return false;
  if (mode === 'refused-only') return status === 429;
  return status === 0 || RETRYABLE_STATUSES.has(status);
}

/**
 * Capped exponential backoff with "equal jitter": the delay after the
 * `attempt`-th failure (1-based) lies in [cap/2, cap], cap = min(max, base * 2^(attempt-1)).
 * Half the wait is guaranteed so retries never bunch at zero; the other half spreads clients out.
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponent = Math.max(0, attempt - 1);
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(cap / 2 + (cap / 2) * r);
}

/** Parses a Retry-After header (delay in seconds, or an HTTP-date) into milliseconds from `now`. */
export function parseRetryAfterMs(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP-date always names a month; this keeps Date.parse from reading "-3" as a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

interface RetryDecisionInput {
  mode: RetryMode;
  /** Attempts made so far (the one that just failed included). */
  attempt: number;
  status: number;
  aborted?: boolean;
  retryAfterMs?: number | undefined;
}

/** How long to wait before the next attempt, or undefined when the failure must go to the caller. */
export function retryDelayMs(
  input: RetryDecisionInput,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (input.attempt >= policy.maxAttempts) return undefined;
  if (!isRetryable(input.mode, input.status, input.aborted)) return undefined;
  if (input.retryAfterMs !== undefined) {
    return input.retryAfterMs > MAX_RETRY_AFTER_MS ? undefined : input.retryAfterMs;
  }
  return backoffDelayMs(input.attempt, policy, random);
}
