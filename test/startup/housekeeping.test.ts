/**
 * Housekeeping runs must not overlap (issue 17): a slow pass (a fake that
 * ends only when the test says so) holds off the next one, whether the
 * interval comes round or someone asks for a pass. Time is a ManualClock.
 */
import { expect, it } from '@jest/globals';
import { flushMicrotasks, ManualClock } from '../../src/runtime/clock.js';
import { Housekeeping } from '../../src/startup/housekeeping.js';

const INTERVAL = 30_000;

/** A pass that ends only when released, counting starts and how many run at once. */
function slowPass() {
  const state = { started: 0, running: 0, mostAtOnce: 0, releases: [] as Array<() => void> };
  const pass = () =>
    new Promise<void>((resolve) => {
      state.started += 1;
      state.running += 1;
      state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
      state.releases.push(() => {
        state.running -= 1;
        resolve();
      });
    });
  const releaseNext = async () => {
    const release = state.releases.shift();
    if (!release) throw new Error('no pass is running');
    release();
    await flushMicrotasks();
  };
  return { state, pass, releaseNext };
}

it('the interval does not start a pass while the previous one still runs', async () => {
  const clock = new ManualClock();
  const fake = slowPass();
  const errors: unknown[] = [];
  const hk = new Housekeeping({
    pass: fake.pass,
    intervalMs: INTERVAL,
    clock,
    onError: (e) => errors.push(e),
  });

  const started = hk.start();
  expect(fake.state.started).toBe(1);
  await fake.releaseNext();
  await started;
  await clock.whenSleeping(1);

  // The second pass starts on the interval and hangs for ten intervals.
  await clock.advance(INTERVAL);
  expect(fake.state.started).toBe(2);
  await clock.advance(INTERVAL * 10);
  expect(fake.state.started).toBe(2);
  expect(clock.pendingSleeps).toBe(0);

  // Once it ends, the next wait begins: a full interval after the end, not before.
  await fake.releaseNext();
  await clock.whenSleeping(1);
  await clock.advance(INTERVAL - 1);
  expect(fake.state.started).toBe(2);
  await clock.advance(1);
  expect(fake.state.started).toBe(3);
  expect(fake.state.mostAtOnce).toBe(1);

  await fake.releaseNext();
  await hk.stop();
  expect(errors).toEqual([]);
});

it('a pass asked for while one runs starts after it; asks meanwhile share that one pass', async () => {
  const clock = new ManualClock();
  const fake = slowPass();
  const hk = new Housekeeping({ pass: fake.pass, intervalMs: INTERVAL, clock, onError: () => {} });

  const first = hk.runNow();
  const done: string[] = [];
  const second = hk.runNow().then(() => done.push('second'));
  const third = hk.runNow().then(() => done.push('third'));
  await flushMicrotasks();
  expect(fake.state.started).toBe(1);

  await fake.releaseNext();
  await first;
  expect(fake.state.started).toBe(2);
  expect(fake.state.running).toBe(1);
  expect(done).toEqual([]);

  await fake.releaseNext();
  await Promise.all([second, third]);
  expect(done).toEqual(['second', 'third']);
  expect(fake.state.started).toBe(2);
  expect(fake.state.mostAtOnce).toBe(1);
  await hk.stop();
});

it('a failed pass is reported and the loop goes on', async () => {
  const clock = new ManualClock();
  let calls = 0;
  const errors: unknown[] = [];
  const hk = new Housekeeping({
    pass: async () => {
      calls += 1;
      if (calls === 1) throw new Error('store down');
    },
    intervalMs: INTERVAL,
    clock,
    onError: (e) => errors.push(e),
  });

  await hk.start();
  expect(errors).toEqual([new Error('store down')]);
  await clock.whenSleeping(1);
  await clock.advance(INTERVAL);
  expect(calls).toBe(2);
  expect(errors).toHaveLength(1);
  await hk.stop();
});

it('stop waits for the pass under way and starts no other', async () => {
  const clock = new ManualClock();
  const fake = slowPass();
  const hk = new Housekeeping({ pass: fake.pass, intervalMs: INTERVAL, clock, onError: () => {} });

  const started = hk.start();
  let stopped = false;
  const stopping = hk.stop().then(() => {
    stopped = true;
  });
  await flushMicrotasks();
  expect(stopped).toBe(false);

  await fake.releaseNext();
  await started;
  await stopping;
  expect(stopped).toBe(true);
  await clock.advance(INTERVAL * 3);
  await hk.runNow();
  expect(fake.state.started).toBe(1);
  expect(clock.pendingSleeps).toBe(0);
});
