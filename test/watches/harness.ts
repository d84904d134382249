/**
 * Replicas for watch tests: stores on one database (a SQLite file, or an empty,
 * migrated PostgreSQL schema when HARBOR_TEST_DATABASE_URL is set), a listing the test
 * edits as the API's state, counting every list read, and a messenger that
 * records what it posts and edits as Slack would hold it.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Armada, ArmadaSet, Location, Site } from '../../src/api-shapes/armada-resources.js';
import type { Formation, Region, Vessel } from '../../src/api-shapes/resources.js';
import { ApiError } from '../../src/gamefabric/errors.js';
import type { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import type { WatchAlert } from '../../src/store/watch-types.js';
import type { AlertMessenger, ChannelMayRead, WatchSource } from '../../src/watches/types.js';
import { Watcher } from '../../src/watches/watcher.js';
import { TestSchemas } from '../support/postgres-schemas.js';

export type StoreKind = 'sqlite' | 'postgres';
export const DATABASE_URL = process.env.HARBOR_TEST_DATABASE_URL;
/** The stores to run on: SQLite always, PostgreSQL when a test database is configured. */
export const STORE_KINDS: StoreKind[] = DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** The PostgreSQL schemas openReplicaStores hands out (each empty and migrated, reused once closed). */
let pgSchemas: TestSchemas | undefined;

/**
 * Drops the PostgreSQL schemas openReplicaStores handed out: each test file calls it after its
 * tests (afterAll), the bench at its end. (No hook here: the bench imports this file outside jest.)
 */
export async function endReplicaStores(): Promise<void> {
  await pgSchemas?.end();
  pgSchemas = undefined;
}

/** `n` stores on one fresh database; `close` closes them and drops (or, PostgreSQL, empties) the database. */
export async function openReplicaStores(
  kind: StoreKind,
  n: number,
): Promise<{ stores: Store[]; close: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-watch-'));
    const stores: Store[] = [];
    for (let i = 0; i < n; i++) stores.push(await openSqliteStore({ dataDir: dir }));
    return {
      stores,
      close: async () => {
        for (const s of stores) await s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const databaseUrl = DATABASE_URL as string;
  pgSchemas ??= new TestSchemas(databaseUrl, 'watch_test');
  const pool = pgSchemas;
  const schema = await pool.take();
  const stores: Store[] = [];
  for (let i = 0; i < n; i++) stores.push(await openPostgresStore({ databaseUrl, schema }));
  return {
    stores,
    close: async () => {
      for (const s of stores) await s.close();
      await pool.give(schema);
    },
  };
}

const meta = (name: string) => ({ name });

/** The API's state as the test sets it, listed through a counting source. */
export class FakeApi implements WatchSource {
  armadas: Armada[] = [];
  armadaSets: ArmadaSet[] = [];
  formations: Formation[] = [];
  vessels: Vessel[] = [];
  sites: Site[] = [];
  locations: Location[] = [];
  regions: Region[] = [];
  reads = 0;
  /** When set, every list fails with it. */
  failure: Error | undefined;
  /** Lists the service account may not read: answered 403. */
  refused = new Set<'sites' | 'locations' | 'regions'>();

  private async read<T>(items: T[], list?: 'sites' | 'locations' | 'regions'): Promise<T[]> {
    this.reads += 1;
    if (this.failure) throw this.failure;
    if (list && this.refused.has(list)) {
      const request = { method: 'GET', path: `/${list}` };
      throw new ApiError({
        status: 403,
        message: `GET ${list}: 403`,
        apiMessage: 'forbidden',
        reason: 'Forbidden',
        request,
      });
    }
    return structuredClone(items);
  }

  listArmadas = (_env: string) => this.read(this.armadas);
  listArmadaSets = (_env: string) => this.read(this.armadaSets);
  listFormations = (_env: string) => this.read(this.formations);
  listVessels = (_env: string) => this.read(this.vessels);
  listSites = () => this.read(this.sites, 'sites');
  listLocations = () => this.read(this.locations, 'locations');
  listRegions = (_env: string) => this.read(this.regions, 'regions');

  /** A vessel in `state` (Running when well). */
  setVessel(name: string, state: string, reason?: string): void {
    this.vessels = this.vessels.filter((v) => v.metadata.name !== name);
    this.vessels.push({
      metadata: meta(name),
      spec: { region: 'eu', template: { spec: { containers: [{ name: 'game', image: 'game:1' }] } } },
      status: { state, ...(reason ? { reason } : {}) },
    } as Vessel);
  }

  /** An Armada in sync state `state`. */
  setArmada(
    name: string,
    state: string,
    reason?: string,
    status: Record<string, unknown> = {},
    min = 1,
  ): void {
    this.armadas = this.armadas.filter((a) => a.metadata.name !== name);
    this.armadas.push({
      metadata: meta(name),
      spec: {
        region: 'eu',
        distribution: [{ name: 'baremetal', minReplicas: min }],
        template: { spec: { containers: [{ name: 'game', image: 'game:1' }] } },
      },
      status: { state, ...(reason ? { reason } : {}), ...status },
    } as Armada);
  }
}

/** What Slack would hold: each posted message and its edits. */
export class RecordingMessenger implements AlertMessenger {
  posts: WatchAlert[] = [];
  updates: WatchAlert[] = [];
  private next = 1;
  failing = false;

  async post(alert: WatchAlert, claim: () => Promise<boolean>): Promise<string | undefined> {
    if (this.failing) throw new Error('slack unavailable');
    if (!(await claim())) return undefined;
    this.posts.push(alert);
    const ts = `1700000000.${String(this.next++).padStart(6, '0')}`;
    return ts;
  }

  async update(alert: WatchAlert & { messageTs: string }): Promise<void> {
    if (this.failing) throw new Error('slack unavailable');
    this.updates.push(alert);
  }

  postsIn(channel: string): WatchAlert[] {
    return this.posts.filter((p) => p.channel === channel);
  }
}

export const everyone: ChannelMayRead = async () => true;
let ids = 0;

/** A watcher for replica `replica` on `store`. */
export function watcherFor(
  replica: string,
  store: Store,
  api: WatchSource,
  messenger: AlertMessenger,
  clock: ManualClock,
  options: { intervalMs?: number; settleMs?: number; mayRead?: ChannelMayRead; vesselStuckMs?: number } = {},
): Watcher {
  return new Watcher({
    ...(options.vesselStuckMs !== undefined ? { vesselStuckMs: options.vesselStuckMs } : {}),
    store,
    source: api,
    messenger,
    mayRead: options.mayRead ?? everyone,
    intervalMs: options.intervalMs ?? 30_000,
    settleMs: options.settleMs ?? 60_000,
    replica,
    newId: () => `alert-${++ids}`,
    logger: silentLogger,
    clock,
  });
}
