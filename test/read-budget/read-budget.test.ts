/**
 * The API read budget (issue 30.3): concurrent reads of one list are one
 * read, a list read lately is answered from a cache of seconds, and past the
 * bound of distinct reads in flight a read is shed at once, counted.
 */
import { expect, it } from '@jest/globals';
import { ReadBudget, ReadShedError } from '../../src/read-budget/read-budget.js';
import { ManualClock } from '../../src/runtime/clock.js';

/** A load that resolves when the test says so, counting its calls. */
function heldLoad<T>(value: T) {
  let calls = 0;
  const releases: (() => void)[] = [];
  return {
    load: () => {
      calls += 1;
      return new Promise<T>((resolve) => releases.push(() => resolve(value)));
    },
    release: () => {
      for (const r of releases.splice(0)) r();
    },
    calls: () => calls,
  };
}

it('coalesces 300 concurrent reads of one list into one load', async () => {
  const budget = new ReadBudget({ clock: new ManualClock(0), cacheMs: 5_000, maxInFlight: 4 });
  const held = heldLoad(['a', 'b']);
  const reads = Array.from({ length: 300 }, () => budget.read('vessels:dev', held.load));
  expect(held.calls()).toBe(1);
  held.release();
  expect(await Promise.all(reads)).toEqual(Array.from({ length: 300 }, () => ['a', 'b']));
});

it('answers from the cache for cacheMs, then reads again', async () => {
  const clock = new ManualClock(0);
  const budget = new ReadBudget({ clock, cacheMs: 5_000, maxInFlight: 4 });
  let calls = 0;
  const load = async () => {
    calls += 1;
    return calls;
  };
  expect(await budget.read('k', load)).toBe(1);
  await clock.advance(4_999);
  expect(await budget.read('k', load)).toBe(1);
  await clock.advance(1);
  expect(await budget.read('k', load)).toBe(2);
});

it('sheds a read past maxInFlight distinct reads, telling onShed, and takes reads again once one ends', async () => {
  const shed: string[] = [];
  const budget = new ReadBudget({
    clock: new ManualClock(0),
    cacheMs: 5_000,
    maxInFlight: 2,
    onShed: (key) => shed.push(key),
  });
  const a = heldLoad('a');
  const b = heldLoad('b');
  const first = budget.read('a', a.load);
  const second = budget.read('b', b.load);
  // A third list is shed; a read joining one under way is not.
  await expect(budget.read('c', async () => 'c')).rejects.toBeInstanceOf(ReadShedError);
  const joined = budget.read('a', a.load);
  expect(shed).toEqual(['c']);
  a.release();
  expect(await first).toBe('a');
  expect(await joined).toBe('a');
  expect(await budget.read('c', async () => 'c')).toBe('c');
  b.release();
  expect(await second).toBe('b');
});

it('does not cache a failed read', async () => {
  const budget = new ReadBudget({ clock: new ManualClock(0), cacheMs: 5_000, maxInFlight: 2 });
  await expect(budget.read('k', async () => Promise.reject(new Error('503')))).rejects.toThrow('503');
  expect(await budget.read('k', async () => 'ok')).toBe('ok');
});
