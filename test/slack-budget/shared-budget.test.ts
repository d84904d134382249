/**
 * Issue 22.1 at the budget's level: three replicas' MessageBudgets drawing
 * from one store (a SQLite file, and PostgreSQL when configured), on one
 * ManualClock, with their tails spread unevenly (1, 3 and 8). Together they
 * stay under Tier 3 in every minute, each tail gets the same share whichever
 * replica runs it, a person's message goes ahead of the tails and counts in
 * the same minute, and a 429 seen by one replica pauses them all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { MessageBudget } from '../../src/slack-budget/budget.js';
import { StoreSlots } from '../../src/slack-budget/shared-slots.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { freshSchema, pgUrl, storeKinds } from '../changes/harness.js';

interface Grant {
  consumer: string;
  at: number;
}

/** Three stores on one database, as three replicas would open it. */
async function openStores(kind: 'sqlite' | 'postgres'): Promise<{ stores: Store[]; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-shared-budget-'));
    const stores: Store[] = [];
    for (let i = 0; i < 3; i++) stores.push(await openSqliteStore({ dataDir: dir }));
    return {
      stores,
      drop: async () => {
        for (const s of stores) await s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const { schema, drop } = freshSchema();
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const stores: Store[] = [];
  for (let i = 0; i < 3; i++) stores.push(await openPostgresStore({ databaseUrl: pgUrl as string, schema }));
  return {
    stores,
    drop: async () => {
      for (const s of stores) await s.close();
      await drop();
    },
  };
}

/** The most grants inside any minute. */
function busiestMinute(grants: readonly Grant[]): number {
  const times = grants.map((g) => g.at).sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (j < times.length && (times[j] as number) < (times[i] as number) + 60_000) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

describe.each(storeKinds)('MessageBudgets of three replicas on one %s store', (kind) => {
  const stops: AbortController[] = [];
  let drop: () => Promise<void> = async () => {};
  afterEach(async () => {
    for (const s of stops.splice(0)) s.abort();
    await drop();
  });

  it('stay under Tier 3 together, share it by tail, put a person first and pause together on a 429', async () => {
    const opened = await openStores(kind);
    drop = opened.drop;
    const clock = new ManualClock();
    const t0 = clock.now();
    const slots = opened.stores.map(
      (store, i) =>
        new StoreSlots({
          store,
          workspace: 'T1',
          replicaId: `replica-${i + 1}`,
          clock,
          logger: silentLogger,
        }),
    );
    const budgets = slots.map((s) => new MessageBudget({ clock }, s));
    const grants: Grant[] = [];
    // Tails spread unevenly: alone on its replica, a tail must not get a third of the workspace.
    const spread = [1, 3, 8];
    budgets.forEach((budget, r) => {
      for (let i = 0; i < (spread[r] as number); i++) {
        const consumer = `r${r + 1}-tail-${i}`;
        const stop = new AbortController();
        stops.push(stop);
        void (async () => {
          for (;;) {
            try {
              await budget.acquire({ method: 'chat.update', channel: 'C1', consumer, signal: stop.signal });
            } catch {
              return;
            }
            grants.push({ consumer, at: clock.now() });
          }
        })();
      }
    });
    const quiet = async () => {
      while (budgets.some((b) => b.busy) || slots.some((s) => s.busy)) {
        await Promise.all([...budgets.map((b) => b.idle()), ...slots.map((s) => s.idle())]);
      }
    };
    const run = async (ms: number) => {
      for (let t = 0; t < ms; t += 100) {
        await quiet();
        await clock.advance(100);
      }
      await quiet();
    };

    await run(60_000);
    const person = await slots[0]?.take('chat.update', 'C1', 'person');
    // A person's message is not queued behind twelve tails: the gate keeps room for it.
    expect(person).toEqual({ taken: true });
    grants.push({ consumer: 'person', at: clock.now() });
    const from = clock.now();
    await run(4 * 60_000);

    expect(busiestMinute(grants)).toBeLessThanOrEqual(50);
    const measured = grants.filter((g) => g.at >= from && g.consumer !== 'person');
    const perTail = new Map<string, number>();
    for (const g of measured) perTail.set(g.consumer, (perTail.get(g.consumer) ?? 0) + 1);
    const counts = [...perTail.values()];
    expect(counts).toHaveLength(12);
    // 4 minutes at 45 a minute over 12 tails: 15 each, whichever replica runs it.
    expect(measured.length).toBeGreaterThanOrEqual(4 * 42);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(13);
    expect(Math.max(...counts)).toBeLessThanOrEqual(17);

    // Slack answers one replica 429 for 20 s: nobody on any replica edits until it has passed.
    const limitedAt = clock.now();
    budgets[2]?.rateLimited('chat.update', 20_000);
    await quiet();
    await run(30_000);
    const during = grants.filter((g) => g.at > limitedAt && g.at < limitedAt + 20_000);
    expect(during).toEqual([]);
    expect(grants.some((g) => g.at >= limitedAt + 20_000)).toBe(true);
    expect(clock.now() - t0).toBeGreaterThan(5 * 60_000);
    for (const b of budgets) b.close();
  }, 60_000);
});

describe('StoreSlots when the store fails', () => {
  it('still grants people and tails from a local share of the rate, counted, and shares again once the store answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-shared-budget-'));
    const peer = await openSqliteStore({ dataDir: dir });
    const store = await openSqliteStore({ dataDir: dir });
    try {
      const clock = new ManualClock();
      const fallbacks: string[] = [];
      const slots = new StoreSlots({
        store,
        workspace: 'T1',
        replicaId: 'replica-1',
        clock,
        logger: silentLogger,
        onFallback: (method) => fallbacks.push(method),
      });
      // Two replicas are known to be busy: the local share is half the rate.
      await peer.reportDemand('T1:chat.update', 'replica-2', 4, 60_000, clock.now());
      expect(await slots.share('chat.update', 4)).toBe(0.5);
      await store.close();
      expect(await slots.take('chat.update', 'C1', 'person')).toEqual({ taken: true });
      // One slot every 2 x 1334 ms at most, on this replica alone.
      expect(await slots.take('chat.update', 'C1', 'person')).toEqual({
        taken: false,
        retryAt: clock.now() + 2 * 1334,
      });
      await clock.advance(2 * 1334);
      expect(await slots.take('chat.update', 'C1', 'tail')).toEqual({ taken: true });
      expect(fallbacks).toEqual(['chat.update', 'chat.update']);
      // The store holds no trace of the slots taken while it was down; the gate is the peer's to share again.
      expect(
        await peer.takeSlot({ key: 'T1:chat.update', intervalMs: 1334, toleranceMs: 0 }, clock.now()),
      ).toEqual({
        taken: true,
      });
    } finally {
      await peer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
