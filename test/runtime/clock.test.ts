/** ManualClock's wait for sleepers: tests wait for code parked on the clock as an event. */
import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';

describe('ManualClock.whenSleeping', () => {
  it('resolves at once when enough sleeps already wait', async () => {
    const clock = new ManualClock(0);
    void clock.sleep(10);
    await expect(clock.whenSleeping()).resolves.toBeUndefined();
  });

  it('resolves when the count-th sleep starts, not before', async () => {
    const clock = new ManualClock(0);
    let woke = false;
    const waiting = clock.whenSleeping(2).then(() => {
      woke = true;
    });
    void clock.sleep(10);
    await Promise.resolve();
    expect(woke).toBe(false);
    void clock.sleep(20);
    await waiting;
    expect(woke).toBe(true);
    expect(clock.pendingSleeps).toBe(2);
  });
});
