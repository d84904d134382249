/**
 * Builds the real parts for change-engine tests: the simulator over loopback,
 * the real client, a real store (SQLite in memory, or PostgreSQL on an empty,
 * migrated schema of its own when HARBOR_TEST_DATABASE_URL is set), a real policy, one ManualClock.
 */
import type { Readable } from 'node:stream';
import fetch from 'node-fetch';
import pg from 'pg';
import type { Change, ClickOutcome } from '../../src/changes/change.js';
import { ChangeEngine } from '../../src/changes/engine.js';
import { createGameFabricClient, type GameFabricClient } from '../../src/gamefabric/client.js';
import type { FetchLike } from '../../src/gamefabric/request.js';
import { loadPolicy, parsePolicy } from '../../src/policy/index.js';
import type { Policy } from '../../src/policy/types.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { SIM_CALL_HEADER } from '../../src/simulator/held-requests.js';
import { makeImage } from '../../src/simulator/images.js';
import {
  demoData,
  type Simulator,
  type SimulatorData,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { TestSchemas } from '../support/postgres-schemas.js';

export const pgUrl = process.env.HARBOR_TEST_DATABASE_URL;

/** The stores to run a suite against: SQLite always, PostgreSQL when configured (else reported skipped). */
export const storeKinds: ('sqlite' | 'postgres')[] = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];
if (!pgUrl) {
  console.warn(
    'PostgreSQL change-engine tests skipped: set HARBOR_TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test',
  );
}

/** The PostgreSQL schemas of startHarness (each harness's empty and migrated), dropped after the file's tests. */
let pgSchemas: TestSchemas | undefined;
// Jest's global hook (not @jest/globals: fixtures run this harness under tsx, where importing it throws).
const afterAllTests = (globalThis as { afterAll?: (fn: () => Promise<void>) => void }).afterAll;
afterAllTests?.(async () => {
  await pgSchemas?.end();
  pgSchemas = undefined;
});

let schemaSeq = 0;

/** A fresh PostgreSQL schema name (nothing created yet) and a function that drops it. */
export function freshSchema(): { schema: string; drop: () => Promise<void> } {
  schemaSeq += 1;
  const schema = `engine_test_${process.pid}_${Date.now().toString(36)}_${schemaSeq}`;
  return {
    schema,
    drop: async () => {
      const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

export interface Harness {
  sim: Simulator;
  client: GameFabricClient;
  store: Store;
  policy: Policy;
  engine: ChangeEngine;
  clock: ManualClock;
  schema?: string;
  /**
   * Resolves once no API call of `client` is under way (at once if none is): from the
   * request's start until its answer's body is read or the request fails. An event,
   * for tests that move the clock only while nothing waits on a socket.
   */
  apiIdle(): Promise<void>;
  /**
   * Resolves once calls are under way and the simulator holds every one of them unanswered
   * by a fault (never while none is under way): they can then end only by their timeout,
   * which with `client.timeoutOnClock` moving the clock brings about.
   */
  apiHeld(): Promise<void>;
  /** A second engine on the same store and API, as another replica would be (or on `on`, a wrapped store). */
  replica(id: string, on?: Store): ChangeEngine;
  close(): Promise<void>;
}

export interface HarnessOptions {
  store?: 'sqlite' | 'postgres';
  /** Policy YAML; default: the built-in default policy. */
  policy?: string;
  groups?: Record<string, string[]>;
  /** SQLite directory (default in memory); a file lets other processes share the store. */
  dataDir?: string;
  /** Start of the ManualClock (default 2026-01-01); real time for tests with child processes. */
  clockStart?: number;
  /** API client settings (default: no retries, the client's default timeout). */
  client?: {
    timeoutMs?: number;
    /**
     * Time calls out on the ManualClock instead of in real time; for tests that move the
     * clock while calls are held (`apiHeld`) and never while one waits on real I/O.
     */
    timeoutOnClock?: boolean;
    retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  };
  /** Extra simulator options, e.g. `{ realShapes: true }`. */
  sim?: Partial<SimulatorOptions>;
}

/**
 * Tags only prod has: promoting it from prod to dev is a real copy (the demo's
 * game-server:1.0.0 is in both with the same digest, which a promotion refuses as a no-op).
 */
export const PROD_ONLY_TAGS = ['0.9.1', '0.9.2', '0.9.3', '0.9.4', '0.9.5'] as const;
export const PROD_ONLY_TAG = PROD_ONLY_TAGS[0];

function withProdOnlyImage(data: SimulatorData): SimulatorData {
  const prod = data.branches.prod ?? [];
  return {
    ...data,
    branches: {
      ...data.branches,
      prod: [...prod, ...PROD_ONLY_TAGS.map((tag) => makeImage('prod', 'game-server', tag))],
    },
  };
}

/** Starts everything; call close() in afterEach. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new ManualClock(options.clockStart);
  const sim = await startSimulator({
    port: 0,
    clock,
    stepMs: 1000,
    terminationMs: 2000,
    logLinesPerSecond: 0,
    ...(options.sim?.realShapes ? {} : { data: withProdOnlyImage(demoData()) }),
    ...options.sim,
  });
  const api = countingFetch((ids) => sim.whenHeld(ids));
  const client = createGameFabricClient({
    baseUrl: sim.url,
    fetch: api.fetch,
    auth: { token: sim.token },
    clock,
    retry: options.client?.retry ?? { maxAttempts: 1 },
    ...(options.client?.timeoutMs ? { timeoutMs: options.client.timeoutMs, random: () => 0.5 } : {}),
    ...(options.client?.timeoutOnClock ? { timeoutClock: clock } : {}),
  });
  if (options.store === 'postgres') pgSchemas ??= new TestSchemas(pgUrl as string, 'engine_test');
  const schemas = options.store === 'postgres' ? pgSchemas : undefined;
  const schema = await schemas?.take();
  const store = await openStore(
    schema ? { databaseUrl: pgUrl, schema } : { dataDir: options.dataDir ?? ':memory:' },
  );
  const ctx = { resolveGroup: async (id: string) => options.groups?.[id] ?? [] };
  const policy = options.policy
    ? parsePolicy(options.policy, ctx, 'test policy')
    : await loadPolicy(undefined, { ...ctx, logger: silentLogger });
  const make = (replicaId: string, on: Store = store) =>
    new ChangeEngine({
      client,
      store: on,
      policy,
      clock,
      logger: silentLogger,
      replicaId,
      follow: { pollMs: 1000, timeoutMs: 30_000 },
    });
  return {
    sim,
    client,
    store,
    policy,
    clock,
    ...(schema ? { schema } : {}),
    apiIdle: api.idle,
    apiHeld: api.held,
    engine: make('replica-a'),
    replica: make,
    close: async () => {
      await sim.stop();
      await store.close();
      if (schema) await schemas?.give(schema);
    },
  };
}

/**
 * node-fetch, counting requests under way: from the call until the body is read or closed, or the
 * call fails. Each call is named to the simulator (`x-sim-call`), which tells when it holds them all.
 */
function countingFetch(whenHeld: (ids: readonly string[]) => Promise<void>): {
  fetch: FetchLike;
  idle: () => Promise<void>;
  held: () => Promise<void>;
} {
  const inflight = new Set<string>();
  let calls = 0;
  const waiters: (() => void)[] = [];
  // Woken whenever a call starts or ends, so a wait for "all held" looks at the calls under way now.
  const changed: (() => void)[] = [];
  const change = () => {
    for (const wake of changed.splice(0)) wake();
  };
  const counted = async (...[url, init]: Parameters<FetchLike>) => {
    const id = String(++calls);
    inflight.add(id);
    change();
    const ended = () => {
      inflight.delete(id);
      change();
      if (inflight.size === 0) for (const wake of waiters.splice(0)) wake();
    };
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      const headers = { ...(init?.headers as Record<string, string> | undefined), [SIM_CALL_HEADER]: id };
      res = await fetch(url, { ...init, headers });
    } catch (error) {
      ended();
      throw error;
    }
    // Read to the end (text(), arrayBuffer()), destroyed by a timeout or a reset: the body stream closes.
    // node-fetch's body is a Node Readable (its types say a web stream).
    const body = res.body as unknown as Readable | null;
    if (body && !body.destroyed) body.once('close', ended);
    else ended();
    return res;
  };
  return {
    fetch: counted,
    idle: () =>
      inflight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    held: async () => {
      for (;;) {
        const now = [...inflight];
        const moved = new Promise<false>((resolve) => changed.push(() => resolve(false)));
        const all = now.length === 0 ? new Promise<true>(() => {}) : whenHeld(now).then(() => true as const);
        if (await Promise.race([all, moved])) return;
      }
    },
  };
}

/** A click by `user` (the requester, U1, unless said) on a change in the harness's channel. */
export const click = (changeId: string, user = 'U1') => ({ changeId, user, channel: 'C1', team: 'T1' });

/** The change a click applied; throws naming the outcome otherwise. */
export function applied(out: ClickOutcome): Change {
  if (out.kind !== 'applied') throw new Error(`expected applied, got ${out.kind}: ${JSON.stringify(out)}`);
  return out.change;
}

/** A new Vessel lobby-9 in dev, one game-server container (vessel.create's input). */
export const LOBBY_9 = {
  environment: 'dev',
  name: 'lobby-9',
  region: 'eu-central',
  containers: [
    {
      name: 'game-server',
      branch: 'dev',
      image: 'game-server:1.2.0',
      cpu: '250m',
      memory: '512Mi',
      ports: [{ name: 'game', containerPort: 7777, protocol: 'UDP' as const, policy: 'Dynamic' as const }],
      args: ['--max-players', '16'],
    },
  ],
};

export const origin = { workspace: 'T1', channel: 'C1' };

/** Collects a follow-up's events, advancing the clock between polls. */
export async function collectFollow(
  clock: ManualClock,
  events: AsyncIterable<{ kind: string; message: string }>,
  /** Sleeps on `clock` while the follow is parked: its poll, and (through the engine) its lease's heartbeat. */
  parkedSleeps = 2,
): Promise<{ kind: string; message: string }[]> {
  const out: { kind: string; message: string }[] = [];
  const iterator = events[Symbol.asyncIterator]();
  for (;;) {
    const next = iterator.next();
    let settled = false;
    next.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    // The follow either yields or parks on its poll sleep. The only other sleep on this clock then
    // is its lease's heartbeat, when it runs through the engine (the simulator reads the clock,
    // never sleeps on it); each time all are parked, a poll interval passes.
    while (!settled) {
      await Promise.race([next, clock.whenSleeping(parkedSleeps)]);
      if (!settled) await clock.advance(1000);
    }
    const { value, done } = await next;
    if (done) return out;
    out.push(value);
  }
}
