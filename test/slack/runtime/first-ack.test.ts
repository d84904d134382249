/**
 * chainsAfterReads (runtime/first-ack.ts): Socket Mode's chains start in the
 * order their acks went out, never in the turn that asked, and each caller
 * hears its own chain's outcome.
 */
import { expect, it } from '@jest/globals';
import { chainsAfterReads } from '../../../src/slack/runtime/first-ack.js';

it('starts chains in the order asked, not in the asking turn, and hands back each outcome', async () => {
  const afterReads = chainsAfterReads();
  const started: number[] = [];
  const runs = [1, 2, 3].map((n) =>
    afterReads(async () => {
      started.push(n);
      if (n === 2) throw new Error('chain 2 failed');
      return n * 10;
    }),
  );
  // Nothing starts in the turn the chains were asked for: the acks' reads go first.
  expect(started).toEqual([]);
  const outcomes = await Promise.allSettled(runs);
  expect(started).toEqual([1, 2, 3]);
  expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
    10,
    'chain 2 failed',
    30,
  ]);
});
