/**
 * Replicas for guard tests: the change harness's simulator, clock and store,
 * plus more stores on the same database (a SQLite file, or the harness's
 * PostgreSQL schema), each with its own engine, its own change events and
 * its own Guards, as separate bot processes would have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeEngine } from '../../src/changes/engine.js';
import { type ChangeEvent, createChangeEvents } from '../../src/changes/events.js';
import { Guards } from '../../src/guards/guards.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { type Harness, type HarnessOptions, pgUrl, startHarness } from '../changes/harness.js';

export const SETTLE_MS = 60_000;
export const LEASE_MS = 90_000;

export interface Replica {
  id: string;
  store: Store;
  engine: ChangeEngine;
  guards: Guards;
  /** The change events this replica's engine told. */
  events: ChangeEvent[];
  settled(): Promise<void>;
}

export interface Replicas {
  h: Harness;
  replicas: Replica[];
  close(): Promise<void>;
}

/** `n` replicas over one simulator and one database of `kind`, under `policy`. */
export async function startReplicas(
  kind: 'sqlite' | 'postgres',
  n: number,
  policy: string,
  sim?: HarnessOptions['sim'],
): Promise<Replicas> {
  const dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'harbor-guard-')) : undefined;
  const h = await startHarness({
    store: kind,
    policy,
    ...(dir ? { dataDir: dir } : {}),
    ...(sim ? { sim } : {}),
  });
  const peers: Store[] = [];
  const replicas: Replica[] = [];
  for (let i = 0; i < n; i++) {
    let store = h.store;
    if (i > 0) {
      store = dir
        ? await openSqliteStore({ dataDir: dir })
        : await openPostgresStore({ databaseUrl: pgUrl as string, schema: h.schema as string });
      peers.push(store);
    }
    const id = `replica-${i + 1}`;
    const changeEvents = createChangeEvents();
    const events: ChangeEvent[] = [];
    changeEvents.on((e) => {
      events.push(e);
    });
    const engine = new ChangeEngine({
      client: h.client,
      store,
      policy: h.policy,
      clock: h.clock,
      logger: silentLogger,
      replicaId: id,
      changeEvents,
    });
    const guards = new Guards({
      store,
      engine,
      source: h.client,
      clock: h.clock,
      logger: silentLogger,
      replicaId: id,
      settleMs: SETTLE_MS,
      leaseMs: LEASE_MS,
    });
    replicas.push({ id, store, engine, guards, events, settled: () => changeEvents.settled() });
  }
  return {
    h,
    replicas,
    close: async () => {
      for (const s of peers) await s.close();
      await h.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One housekeeping pass of each replica's guards at once (as their loops would race), then `stepMs` later. */
export async function passes(
  replicas: readonly Replica[],
  clock: { advance(ms: number): Promise<void> },
  stepMs: number,
) {
  await Promise.all(replicas.map((r) => r.guards.pass()));
  await Promise.all(replicas.map((r) => r.settled()));
  await clock.advance(stepMs);
}
