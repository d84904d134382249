/**
 * One Home tab publish per person at a time: refreshes asked for while one is
 * under way fold into one more publish, drawn from the state at that time.
 */
import { expect, it } from '@jest/globals';
import type { HomeView } from '@slack/types';
import { silentLogger } from '../../../src/runtime/logger.js';
import { HomePublisher } from '../../../src/slack/home/publisher.js';

/** A publish that finishes when the test says so. */
function gatedPublisher() {
  const published: { user: string; text: string }[] = [];
  const gates: (() => void)[] = [];
  let state = 0;
  const publisher = new HomePublisher({
    draw: async (user) => ({ type: 'home', blocks: [], private_metadata: `${user}:${state}` }) as HomeView,
    publish: (user, view) =>
      new Promise<void>((resolve) => {
        published.push({ user, text: view.private_metadata ?? '' });
        gates.push(resolve);
      }),
    logger: silentLogger,
  });
  return {
    publisher,
    published,
    setState: (s: number) => {
      state = s;
    },
    /** Lets the oldest waiting publish finish, then lets the publisher move on. */
    finishOne: async () => {
      gates.shift()?.();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

it('folds refreshes during a publish into one more, with the latest state', async () => {
  const g = gatedPublisher();
  const first = g.publisher.refresh('U1', 'T1');
  await Promise.resolve();
  expect(g.published).toEqual([{ user: 'U1', text: 'U1:0' }]);
  g.setState(1);
  void g.publisher.refresh('U1', 'T1');
  g.setState(2);
  void g.publisher.refresh('U1', 'T1');
  // Another person's tab is not held up by U1's.
  void g.publisher.refresh('U2', 'T1');
  await Promise.resolve();
  expect(g.published.map((p) => p.user)).toEqual(['U1', 'U2']);
  await g.finishOne();
  expect(g.published).toEqual([
    { user: 'U1', text: 'U1:0' },
    { user: 'U2', text: 'U2:2' },
    { user: 'U1', text: 'U1:2' },
  ]);
  await g.finishOne();
  await g.finishOne();
  await first;
  await g.publisher.idle();
  expect(g.published).toHaveLength(3);
});

it('keeps going after a failed publish', async () => {
  let calls = 0;
  const publisher = new HomePublisher({
    draw: async () => ({ type: 'home', blocks: [] }),
    publish: async () => {
      calls += 1;
      if (calls === 1) throw new Error('ratelimited');
    },
    logger: silentLogger,
  });
  await publisher.refresh('U1', 'T1');
  await publisher.refresh('U1', 'T1');
  expect(calls).toBe(2);
});
