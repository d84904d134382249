/**
 * One Slack method's workspace-wide gate (src/slack-budget/method-gate.ts),
 * on its own: its pace and burst, shared by replicas through the store; a
 * 429 one replica saw pausing every replica's calls; `pause()` holding a
 * call whose slot was taken before that 429; and a local gate at the same
 * pace when the store fails.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { flushMicrotasks, ManualClock } from '../../src/runtime/clock.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { MethodGate } from '../../src/slack-budget/method-gate.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import type { SlackBudgetStore } from '../../src/store/types.js';

const T0 = Date.UTC(2026, 0, 1, 12);

let clock: ManualClock;
let store: SqliteStore;
beforeEach(async () => {
  clock = new ManualClock(T0);
  store = await openSqliteStore({ dataDir: ':memory:' });
});
afterEach(async () => {
  await store.close();
});

/** A replica's gate for views.publish: 60 a minute (one a second), two back to back. */
const gate = (budget: SlackBudgetStore = store, logger = createMemoryLogger()) =>
  new MethodGate({
    store: budget,
    workspace: 'T1',
    method: 'views.publish',
    perMinute: 60,
    burst: 2,
    clock,
    logger,
  });

/** Whether `p` has settled, once everything runnable has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await flushMicrotasks();
  return done;
}

/** Resolves once `call` waited on the clock until exactly `at`, not a millisecond less. */
async function opensAt(call: Promise<void>, at: number): Promise<void> {
  await clock.whenSleeping();
  await clock.advance(at - 1 - clock.now());
  expect(await settled(call)).toBe(false);
  await clock.advance(1);
  await call;
  expect(clock.now()).toBe(at);
}

describe('MethodGate', () => {
  it('lets a burst through, then one a second, counted across replicas', async () => {
    const [a, b] = [gate(), gate()];
    await a.wait();
    await b.wait();
    // The burst of two is spent by the two replicas together: the third waits a second.
    await opensAt(a.wait(), T0 + 1000);
  });

  it('a 429 one replica saw holds every replica until Slack said', async () => {
    const [a, b] = [gate(), gate()];
    await a.hold(T0 + 5000);
    await opensAt(b.wait(), T0 + 5000);
  });

  it('pause() holds a call whose slot came before the 429, on the replica that saw it', async () => {
    const [a, b] = [gate(), gate()];
    await a.wait();
    await a.hold(T0 + 3000);
    // The other replica's slot is in the store's hands; only the one that saw the 429 waits here.
    await b.pause();
    await opensAt(a.pause(), T0 + 3000);
  });

  it('paces this replica alone at the same rate when the store fails, and says so', async () => {
    const logger = createMemoryLogger();
    const failing: SlackBudgetStore = {
      takeSlot: () => Promise.reject(new Error('database is down')),
      holdSlots: () => Promise.reject(new Error('database is down')),
    } as unknown as SlackBudgetStore;
    const alone = gate(failing, logger);
    await alone.wait();
    await alone.wait();
    await opensAt(alone.wait(), T0 + 1000);
    expect(
      logger.lines.some((l) => l.includes('the Slack budget store failed; pacing this replica alone')),
    ).toBe(true);
    // A 429 still pauses it, though the store could not share the pause.
    await alone.hold(T0 + 3000);
    expect(logger.lines.some((l) => l.includes('could not share a Slack rate limit pause'))).toBe(true);
    await opensAt(alone.pause(), T0 + 3000);
  });
});
