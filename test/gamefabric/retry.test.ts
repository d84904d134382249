import { describe, expect, it } from '@jest/globals';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  parseRetryAfterMs,
  resolveRetryPolicy,
  retryDelayMs,
} from '../../src/gamefabric/retry.js';

const policy = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 1000 };
const top = () => 1;
const bottom = () => 0;

describe('isRetryable', () => {
  it.each([0, 429, 502, 503, 504])('idempotent requests retry status %i', (status) => {
    expect(isRetryable('idempotent', status)).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 422, 500, 501])(
    'idempotent requests do not retry status %i',
    (status) => {
      expect(isRetryable('idempotent', status)).toBe(false);
    },
  );

  it('other writes retry only a 429, never a network failure or a 5xx', () => {
    expect(isRetryable('refused-only', 429)).toBe(true);
    for (const status of [0, 500, 502, 503, 504, 409])
      expect(isRetryable('refused-only', status)).toBe(false);
  });

  it('never retries a request the caller aborted', () => {
    expect(isRetryable('idempotent', 0, true)).toBe(false);
  });
});

describe('backoffDelayMs', () => {
  it('doubles from the base delay', () => {
    expect([1, 2, 3].map((n) => backoffDelayMs(n, policy, top))).toEqual([200, 400, 800]);
  });

  it('is capped at maxDelayMs', () => {
    expect(backoffDelayMs(4, policy, top)).toBe(1000);
    expect(backoffDelayMs(30, policy, top)).toBe(1000);
  });

  it('jitters between half the cap and the cap', () => {
    expect(backoffDelayMs(3, policy, bottom)).toBe(400);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(600);
    expect(backoffDelayMs(30, policy, bottom)).toBe(500);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);

  it('reads delay-seconds', () => {
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('1.5', now)).toBe(1500);
  });

  it('reads an HTTP-date relative to now, never negative', () => {
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 12:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
    expect(parseRetryAfterMs('', now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs('-3', now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('backs off when the failure is retryable and attempts remain', () => {
    expect(retryDelayMs({ mode: 'idempotent', attempt: 1, status: 503 }, policy, top)).toBe(200);
  });

  it('stops after maxAttempts', () => {
    expect(retryDelayMs({ mode: 'idempotent', attempt: 4, status: 503 }, policy, top)).toBeUndefined();
  });

  it('honours Retry-After instead of the backoff, even above the backoff cap', () => {
    expect(
      retryDelayMs({ mode: 'idempotent', attempt: 1, status: 429, retryAfterMs: 3000 }, policy, top),
    ).toBe(3000);
    expect(
      retryDelayMs({ mode: 'refused-only', attempt: 1, status: 429, retryAfterMs: 0 }, policy, top),
    ).toBe(0);
  });

  it('gives the failure back when Retry-After asks for too long a wait', () => {
    const retryAfterMs = MAX_RETRY_AFTER_MS + 1;
    expect(
      retryDelayMs({ mode: 'idempotent', attempt: 1, status: 429, retryAfterMs }, policy, top),
    ).toBeUndefined();
  });

  it('does not retry what the mode forbids', () => {
    expect(retryDelayMs({ mode: 'refused-only', attempt: 1, status: 503 }, policy, top)).toBeUndefined();
    expect(
      retryDelayMs({ mode: 'idempotent', attempt: 1, status: 0, aborted: true }, policy, top),
    ).toBeUndefined();
  });
});

describe('resolveRetryPolicy', () => {
  it('fills defaults and keeps at least one attempt', () => {
    expect(resolveRetryPolicy()).toEqual(DEFAULT_RETRY_POLICY);
    expect(resolveRetryPolicy({ maxAttempts: 0, maxDelayMs: 50 })).toEqual({
      maxAttempts: 1,
      baseDelayMs: 200,
      maxDelayMs: 50,
    });
  });
});
