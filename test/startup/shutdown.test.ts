/**
 * Bounded shutdown (issue 9, defect 7): stopping waits for work in flight,
 * but only until the deadline; then it reports what was left. The deadline
 * is a latch the test releases, not a timer.
 */
import { expect, it } from '@jest/globals';
import { stopWithin } from '../../src/startup/shutdown.js';

function latch(): { promise: Promise<void>; release(): void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

it('reports stopped when the work finishes before the deadline', async () => {
  const deadline = latch();
  const outcome = await stopWithin({ stop: async () => {}, inFlight: () => [] }, deadline.promise);
  expect(outcome).toEqual({ kind: 'stopped' });
});

it('gives up at the deadline, naming the work still running', async () => {
  const deadline = latch();
  const hung = latch();
  const pending = stopWithin(
    { stop: () => hung.promise, inFlight: () => ['click confirm', 'follow-up'] },
    deadline.promise,
  );
  deadline.release();
  expect(await pending).toEqual({ kind: 'deadline', left: ['click confirm', 'follow-up'] });
});

it('reports a failing stop with what was left', async () => {
  const boom = new Error('pool end failed');
  const outcome = await stopWithin(
    {
      stop: async () => {
        throw boom;
      },
      inFlight: () => ['command promote'],
    },
    latch().promise,
  );
  expect(outcome).toEqual({ kind: 'failed', error: boom, left: ['command promote'] });
});
