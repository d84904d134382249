/**
 * ChainsAfterReads (runtime/first-ack.ts): both receivers' chains start in the
 * order their acks went out, never in the turn that asked, and each caller
 * hears its own chain's outcome.
 */
import { expect, it } from '@jest/globals';
import { ChainsAfterReads } from '../../../src/slack/runtime/first-ack.js';

it('starts chains in the order asked, not in the asking turn, and hands back each outcome', async () => {
  const chains = new ChainsAfterReads();
  const started: number[] = [];
  const runs = [1, 2, 3].map((n) =>
    chains.run(async () => {
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

it("starts no chain while a burst's acks are still under way (quiet), then all of them in order", async () => {
  let settle: () => void = () => {};
  let settled = false;
  const quiet = () => (settled ? Promise.resolve() : new Promise<void>((resolve) => (settle = resolve)));
  const chains = new ChainsAfterReads(quiet);
  const started: number[] = [];
  const runs = [1, 2, 3].map((n) => chains.run(async () => started.push(n)));
  // Many turns of the loop pass, and nothing starts while the acks are not settled.
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(started).toEqual([]);
  settled = true;
  settle();
  await Promise.all(runs);
  expect(started).toEqual([1, 2, 3]);
});
