import { afterEach, describe, expect, it } from '@jest/globals';
import { flushMicrotasks, ManualClock } from '../../src/runtime/clock.js';
import { BudgetError, MessageBudget, type MessageMethod } from '../../src/slack-budget/budget.js';

interface Grant {
  consumer: string;
  channel: string;
  at: number;
}

const stops: AbortController[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s.abort();
});

/** A tail that asks for its next slot as soon as it got one (the busiest possible consumer). */
function greedy(
  budget: MessageBudget,
  clock: ManualClock,
  grants: Grant[],
  consumer: string,
  opts: { method?: MessageMethod; channel?: string; share?: string } = {},
): AbortController {
  const stop = new AbortController();
  stops.push(stop);
  // Callers flush microtasks before advancing the clock, so a grant is recorded at the time it was made.
  const method = opts.method ?? 'chat.update';
  const channel = opts.channel ?? 'C1';
  void (async () => {
    for (;;) {
      try {
        const share = opts.share ? { share: opts.share } : {};
        await budget.acquire({ method, channel, consumer, ...share, signal: stop.signal });
      } catch {
        return;
      }
      grants.push({ consumer, channel, at: clock.now() });
    }
  })();
  return stop;
}

/** The most grants inside any window of `ms` (windows start at a grant, where the maximum is reached). */
function maxInWindow(grants: Grant[], ms: number): number {
  let best = 0;
  let j = 0;
  for (let i = 0; i < grants.length; i++) {
    const start = (grants[i] as Grant).at;
    while (j < grants.length && (grants[j] as Grant).at < start + ms) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

describe('MessageBudget chat.update', () => {
  it('gives one busy tail about one update every 1.33 s after a small burst', async () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    const budget = new MessageBudget({ clock });
    const grants: Grant[] = [];
    greedy(budget, clock, grants, 'tail-1');
    await flushMicrotasks();
    expect(grants.map((g) => g.at - t0)).toEqual([0, 0, 0]);
    await clock.advance(10 * 60_000);
    const gaps = grants.slice(3).map((g, i) => g.at - (grants[i + 2] as Grant).at);
    for (const gap of gaps.slice(1)) expect(gap === 1333 || gap === 1334).toBe(true);
    expect(grants.length).toBe(3 + 450);
    expect(maxInWindow(grants, 60_000)).toBeLessThanOrEqual(48);
  });

  it('shares the rate fairly among 30 tails and never exceeds it in any 60 s window', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock });
    const grants: Grant[] = [];
    for (let i = 0; i < 30; i++) greedy(budget, clock, grants, `tail-${i}`, { channel: `C${i % 4}` });
    await flushMicrotasks();
    await clock.advance(30 * 60_000);
    const counts = Object.values(budget.stats().granted);
    expect(counts).toHaveLength(30);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(grants.length);
    expect(maxInWindow(grants, 60_000)).toBeLessThanOrEqual(48); // 45 a minute plus the burst of 3, under Slack's 50
    // Round robin: between two grants of one tail, every other tail got one.
    const order = grants.slice(0, 90).map((g) => g.consumer);
    expect(new Set(order.slice(0, 30)).size).toBe(30);
    expect(order.slice(30, 60)).toEqual(order.slice(0, 30));
  });

  it('serves a newly arrived tail before the busy ones get another slot', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock, updateBurst: 1 });
    const grants: Grant[] = [];
    greedy(budget, clock, grants, 'a');
    greedy(budget, clock, grants, 'b');
    await flushMicrotasks();
    await clock.advance(10_000);
    greedy(budget, clock, grants, 'new');
    const before = grants.length;
    await clock.advance(1334);
    expect(grants[before]?.consumer).toBe('new');
  });

  it("spends a tail's turn on its part freezes: a tail that rolls over edits no more than the others", async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock, updateBurst: 1 });
    const grants: Grant[] = [];
    for (const tail of ['a', 'b', 'c']) greedy(budget, clock, grants, tail);
    await flushMicrotasks();
    await clock.advance(10_000);
    // `a` rolled over: the freeze of its last part waits beside its next refresh, on a's share.
    const freeze = budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'a/freeze', share: 'a' });
    const before = grants.length;
    await clock.advance(60_000);
    await freeze;
    const [a = 0, b = 0, c = 0] = ['a', 'b', 'c'].map(
      (t) => grants.slice(before).filter((g) => g.consumer === t).length,
    );
    // a's edits in the minute, its freeze included, are no more than b's or c's (as a share of its own it had one more).
    expect(budget.stats().granted['a/freeze']).toBe(1);
    expect(a + 1).toBeLessThanOrEqual(Math.min(b, c));
  });

  it('on a 429 pauses the method for every tail, then resumes one slot at a time', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock });
    const grants: Grant[] = [];
    greedy(budget, clock, grants, 'a');
    greedy(budget, clock, grants, 'b');
    await flushMicrotasks();
    await clock.advance(5_000);
    const pausedAt = clock.now();
    budget.rateLimited('chat.update', 30_000);
    expect(budget.stats().pausedUntil['chat.update']).toBe(pausedAt + 30_000);
    const before = grants.length;
    await clock.advance(29_999);
    expect(grants.length).toBe(before);
    await clock.advance(1);
    expect(grants.length).toBe(before + 1);
    expect(grants.at(-1)?.at).toBe(pausedAt + 30_000);
    await clock.advance(1_332);
    expect(grants.length).toBe(before + 1); // no burst right after a 429
    await clock.advance(2);
    expect(grants.length).toBe(before + 2);
    expect(budget.stats().pausedUntil['chat.update']).toBeUndefined();
  });
});

describe('MessageBudget chat.postMessage', () => {
  it('spaces posts in one channel by at least a second; other channels are not held back', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock, postsPerMinute: 600, postBurst: 5 });
    const grants: Grant[] = [];
    greedy(budget, clock, grants, 'a', { method: 'chat.postMessage', channel: 'C1' });
    greedy(budget, clock, grants, 'b', { method: 'chat.postMessage', channel: 'C1' });
    greedy(budget, clock, grants, 'c', { method: 'chat.postMessage', channel: 'C2' });
    await flushMicrotasks();
    await clock.advance(60_000);
    const inC1 = grants.filter((g) => g.channel === 'C1');
    for (let i = 1; i < inC1.length; i++) {
      expect((inC1[i] as Grant).at - (inC1[i - 1] as Grant).at).toBeGreaterThanOrEqual(1000);
    }
    expect(inC1.length).toBe(61);
    expect(grants.filter((g) => g.channel === 'C2').length).toBe(61);
    const byConsumer = budget.stats().granted;
    expect(Math.abs((byConsumer.a ?? 0) - (byConsumer.b ?? 0))).toBeLessThanOrEqual(1);
  });

  it('keeps to the workspace post rate across many channels', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock, postsPerMinute: 60, postBurst: 2 });
    const grants: Grant[] = [];
    for (let i = 0; i < 10; i++)
      greedy(budget, clock, grants, `t${i}`, { method: 'chat.postMessage', channel: `C${i}` });
    await flushMicrotasks();
    await clock.advance(5 * 60_000);
    expect(maxInWindow(grants, 60_000)).toBeLessThanOrEqual(62);
    expect(grants.length).toBeGreaterThanOrEqual(5 * 60);
  });

  it('a channel 429 holds only that channel', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock });
    const grants: Grant[] = [];
    budget.rateLimited('chat.postMessage', 10_000, 'C1');
    greedy(budget, clock, grants, 'a', { method: 'chat.postMessage', channel: 'C1' });
    greedy(budget, clock, grants, 'b', { method: 'chat.postMessage', channel: 'C2' });
    await flushMicrotasks();
    await clock.advance(9_999);
    expect(grants.every((g) => g.channel === 'C2')).toBe(true);
    await clock.advance(1);
    expect(grants.some((g) => g.channel === 'C1')).toBe(true);
  });
});

describe('MessageBudget waiters', () => {
  it('allows one waiting request per consumer and method', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock, updateBurst: 1 });
    await budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'a' });
    const waiting = budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'a' });
    await expect(budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'a' })).rejects.toThrow(
      BudgetError,
    );
    // Another method is a separate queue.
    await expect(
      budget.acquire({ method: 'chat.postMessage', channel: 'C1', consumer: 'a' }),
    ).resolves.toBeUndefined();
    await clock.advance(1334);
    await expect(waiting).resolves.toBeUndefined();
  });

  it('an aborted waiter leaves the queue and the next one gets its slot', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock, updateBurst: 1 });
    await budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'x' });
    const stopA = new AbortController();
    const a = budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'a', signal: stopA.signal });
    const b = budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'b' });
    expect(budget.stats().waiting['chat.update']).toBe(2);
    stopA.abort(new Error('tail stopped'));
    await expect(a).rejects.toThrow('tail stopped');
    expect(budget.stats().waiting['chat.update']).toBe(1);
    await clock.advance(1334);
    await expect(b).resolves.toBeUndefined();
    expect(budget.stats().granted).toEqual({ x: 1, b: 1 });
    expect(budget.stats().waits).toEqual({ count: 2, totalMs: 1334, maxMs: 1334 });
  });

  it('close rejects waiters and leaves no timer behind; forget drops a consumer', async () => {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock, updateBurst: 1 });
    await budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'a' });
    const waiting = budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'b' });
    expect(clock.pendingSleeps).toBe(1);
    budget.forget('a');
    expect(budget.stats().granted).toEqual({});
    budget.close();
    await expect(waiting).rejects.toThrow('closed');
    expect(clock.pendingSleeps).toBe(0);
    await expect(budget.acquire({ method: 'chat.update', channel: 'C1', consumer: 'c' })).rejects.toThrow(
      BudgetError,
    );
  });
});
