import { describe, expect, it } from '@jest/globals';
import { retryDelay } from '../../src/tails/retry.js';

describe('a tail’s retry waits', () => {
  it('double from about a second up to 30 s, with jitter between half and all of each step', () => {
    const top = () => 1;
    const bottom = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, top))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect([1, 2, 6].map((n) => retryDelay(n, bottom))).toEqual([500, 1000, 15_000]);
    expect(retryDelay(2, () => 0.5)).toBe(1500);
  });
});
