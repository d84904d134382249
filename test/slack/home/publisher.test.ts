/**
 * One Home tab publish per person at a time: refreshes asked for while one is
 * under way fold into one more publish, drawn from the state at that time.
 */
import { expect, it } from '@jest/globals';
import type { HomeView } from '@slack/types';
import { silentLogger } from '../../../src/runtime/logger.js';
import { HomePublisher } from '../../../src/slack/home/publisher.js';

/** Who opened their Home tab, kept in memory as the store would keep it. */
function memoryViewers() {
  const byTeam = new Map<string, Set<string>>();
  return {
    note: async (team: string, user: string) => {
      byTeam.set(team, (byTeam.get(team) ?? new Set<string>()).add(user));
    },
    list: async (team: string) => [...(byTeam.get(team) ?? [])],
  };
}

/** A publish that finishes when the test says so. */
function gatedPublisher() {
  const published: { user: string; text: string }[] = [];
  const gates: (() => void)[] = [];
  let state = 0;
  // Told when a publish starts, so a test waits for that instead of counting turns.
  let started: () => void = () => {};
  const publisher = new HomePublisher({
    draw: async (user) => ({ type: 'home', blocks: [], private_metadata: `${user}:${state}` }) as HomeView,
    publish: (user, view) =>
      new Promise<void>((resolve) => {
        published.push({ user, text: view.private_metadata ?? '' });
        gates.push(resolve);
        started();
      }),
    viewers: memoryViewers(),
    logger: silentLogger,
    now: () => 0,
    slot: async () => {},
    batch: (fn) => fn(),
  });
  return {
    publisher,
    published,
    setState: (s: number) => {
      state = s;
    },
    /** Lets the oldest waiting publish finish; resolves when the next one has started or all are done. */
    finishOne: async () => {
      const next = new Promise<void>((resolve) => {
        started = resolve;
      });
      gates.shift()?.();
      await Promise.race([next, publisher.idle()]);
    },
    /** Lets every publish finish, and any they lead to, until the publisher is idle. */
    finishAll: async () => {
      while (gates.length > 0) {
        const next = new Promise<void>((resolve) => {
          started = resolve;
        });
        for (const gate of gates.splice(0)) gate();
        await Promise.race([next, publisher.idle()]);
      }
      await publisher.idle();
    },
    /** Resolves once `n` publishes have started. */
    startedCount: async (n: number) => {
      while (published.length < n) {
        await new Promise<void>((resolve) => {
          started = resolve;
        });
      }
    },
  };
}

it('folds refreshes during a publish into one more, with the latest state', async () => {
  const g = gatedPublisher();
  const first = g.publisher.refresh('U1', 'T1');
  await g.startedCount(1);
  expect(g.published).toEqual([{ user: 'U1', text: 'U1:0' }]);
  g.setState(1);
  void g.publisher.refresh('U1', 'T1');
  g.setState(2);
  void g.publisher.refresh('U1', 'T1');
  // Another person's tab is not held up by U1's.
  void g.publisher.refresh('U2', 'T1');
  await g.startedCount(2);
  expect(g.published.map((p) => p.user)).toEqual(['U1', 'U2']);
  await g.finishOne();
  expect(g.published).toEqual([
    { user: 'U1', text: 'U1:0' },
    { user: 'U2', text: 'U2:2' },
    { user: 'U1', text: 'U1:2' },
  ]);
  await g.finishAll();
  await first;
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
    viewers: memoryViewers(),
    logger: silentLogger,
    now: () => 0,
    slot: async () => {},
    batch: (fn) => fn(),
  });
  await publisher.refresh('U1', 'T1');
  await publisher.refresh('U1', 'T1');
  expect(calls).toBe(2);
});

it('redraws, on a stale workspace, the tabs of those who opened theirs there (wherever they opened it)', async () => {
  const viewers = memoryViewers();
  const drawn: string[] = [];
  const replica = (name: string) =>
    new HomePublisher({
      draw: async (user) => ({ type: 'home', blocks: [], private_metadata: user }),
      publish: async (user) => {
        drawn.push(`${name}:${user}`);
      },
      viewers,
      logger: silentLogger,
      now: () => 0,
      slot: async () => {},
      batch: (fn) => fn(),
    });
  const a = replica('a');
  const b = replica('b');
  await a.opened('U1', 'T1');
  await a.opened('U9', 'T2');
  await b.stale('T1');
  expect(drawn).toEqual(['a:U1', 'a:U9', 'b:U1']);
});

it('still draws an opened tab when who opened it cannot be noted', async () => {
  const drawn: string[] = [];
  const publisher = new HomePublisher({
    draw: async () => ({ type: 'home', blocks: [] }),
    publish: async (user) => {
      drawn.push(user);
    },
    viewers: {
      note: async () => {
        throw new Error('database is down');
      },
      list: async () => {
        throw new Error('database is down');
      },
    },
    logger: silentLogger,
    now: () => 0,
    slot: async () => {},
    batch: (fn) => fn(),
  });
  await publisher.opened('U1', 'T1');
  await publisher.stale('T1');
  expect(drawn).toEqual(['U1']);
});
