/**
 * A worker's liveness judges its housekeeping loops by when each last ended a
 * pass (startup/housekeeping-beats.ts), on an injected clock: a loop is
 * judged from its start, goes stale past the limit, and a pass brings it back.
 */
import { expect, it } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';
import { HOUSEKEEPING_STALE_MS, HousekeepingBeats } from '../../src/startup/housekeeping-beats.js';

it('is live before any loop starts, and judges each started loop from its start', () => {
  const clock = new ManualClock();
  const beats = new HousekeepingBeats(clock);
  expect(beats.report()).toEqual({ live: true, sinceLastPassMs: {}, staleAfterMs: HOUSEKEEPING_STALE_MS });
  beats.started('lifecycle');
  clock.set(clock.now() + HOUSEKEEPING_STALE_MS);
  expect(beats.report()).toMatchObject({ live: true, sinceLastPassMs: { lifecycle: HOUSEKEEPING_STALE_MS } });
  clock.set(clock.now() + 1);
  expect(beats.report().live).toBe(false);
});

it('goes stale when one loop stops passing though another keeps on, and is live again after its pass', () => {
  const clock = new ManualClock();
  const beats = new HousekeepingBeats(clock, 1_000);
  beats.started('lifecycle');
  beats.started('scheduler');
  clock.set(clock.now() + 600);
  beats.beat('scheduler');
  clock.set(clock.now() + 600);
  beats.beat('scheduler');
  expect(beats.report()).toEqual({
    live: false,
    sinceLastPassMs: { lifecycle: 1_200, scheduler: 0 },
    staleAfterMs: 1_000,
  });
  beats.beat('lifecycle');
  expect(beats.report()).toMatchObject({ live: true, sinceLastPassMs: { lifecycle: 0, scheduler: 0 } });
  // A loop started again keeps its last pass: starting is not a pass.
  clock.set(clock.now() + 1_001);
  beats.started('lifecycle');
  expect(beats.report().live).toBe(false);
});
