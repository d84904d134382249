/**
 * How fast each store claims Changes for applying (the confirm click's
 * conditional update), and how long a claim takes when 50 clicks race on one
 * Change. Run: npx tsx bench/store-claims.ts [--database-url URL] [--changes N]
 * The SQLite store lives in a temp directory and PostgreSQL in its own schema;
 * both are removed afterwards.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import type { ChangeRecord, Store } from '../src/store/types.js';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const T0 = Date.UTC(2026, 0, 1);

interface BenchOptions {
  changes: number;
  parallel: number;
  contenders: number;
  contentionRounds: number;
}

interface BenchResult {
  store: string;
  sequentialPerSec: number;
  parallelPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Rounds in which other than exactly one contender won (must be 0). */
  badRounds: number;
}

let sequence = 0;
/** A pending change with a realistic request/preview size. */
function change(): Omit<ChangeRecord, 'version'> {
  sequence += 1;
  return {
    id: `bench-${process.pid}-${sequence}`,
    operation: 'promote-image',
    request: { image: 'game', tag: `1.0.${sequence}`, from: 'dev', to: 'prod' },
    preview: { internalName: `game-${sequence}`, targetHasTag: false, branches: ['dev', 'prod'] },
    requester: 'U_BENCH',
    origin: { workspace: 'T_BENCH', channel: 'C_BENCH', threadTs: '1700000000.000100' },
    status: 'pending',
    createdAt: T0 + sequence,
    updatedAt: T0 + sequence,
    expiresAt: T0 + sequence + 15 * 60_000,
  };
}

/** The confirm click: pending/approved -> applying, owned by `owner`. */
function claim(store: Store, id: string, owner: string): Promise<ChangeRecord | undefined> {
  return store.transitionChange(
    id,
    ['pending', 'approved'],
    'applying',
    { applyingOwner: owner, applyingSince: T0, confirmedBy: 'U_CLICK' },
    { now: T0 },
  );
}

/** create+claim pairs per second, with `workers` loops sharing `total` changes. */
async function claimLoop(store: Store, total: number, workers: number): Promise<number> {
  let remaining = total;
  const worker = async (w: number) => {
    while (remaining > 0) {
      remaining -= 1;
      const created = await store.createChange(change());
      if (!(await claim(store, created.id, `worker-${w}`)))
        throw new Error(`uncontended claim failed: ${created.id}`);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return total / ((performance.now() - start) / 1000);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Latencies of every claim when `contenders` race on one change, over several rounds. */
async function contention(store: Store, options: BenchOptions) {
  const latencies: number[] = [];
  let badRounds = 0;
  for (let round = 0; round < options.contentionRounds; round++) {
    const created = await store.createChange(change());
    const results = await Promise.all(
      Array.from({ length: options.contenders }, async (_, i) => {
        const start = performance.now();
        const won = await claim(store, created.id, `contender-${i}`);
        latencies.push(performance.now() - start);
        return won;
      }),
    );
    if (results.filter(Boolean).length !== 1) badRounds += 1;
  }
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    badRounds,
  };
}

async function bench(name: string, store: Store, options: BenchOptions): Promise<BenchResult> {
  await claimLoop(store, Math.min(100, options.changes), 1); // warm-up: statement caches, connections
  const sequentialPerSec = await claimLoop(store, options.changes, 1);
  const parallelPerSec = await claimLoop(store, options.changes, options.parallel);
  const c = await contention(store, options);
  return {
    store: name,
    sequentialPerSec,
    parallelPerSec,
    p50Ms: c.p50,
    p99Ms: c.p99,
    maxMs: c.max,
    badRounds: c.badRounds,
  };
}

async function benchSqlite(options: BenchOptions): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-bench-'));
  const store = await openSqliteStore({ dataDir: dir });
  try {
    return await bench('sqlite (file, WAL)', store, options);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPostgres(databaseUrl: string, options: BenchOptions): Promise<BenchResult> {
  const schema = `bench_store_${process.pid}`;
  // A pool as large as the contention, so all contenders really reach the database at once.
  const store: PostgresStore = await openPostgresStore({
    databaseUrl,
    schema,
    maxConnections: Math.max(options.contenders, options.parallel),
  });
  try {
    return await bench(`postgres (pool ${Math.max(options.contenders, options.parallel)})`, store, options);
  } finally {
    await store.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await store.close();
  }
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const line = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const [head, ...body] = rows;
  return [line(head ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** A positive integer command-line value, or a usage error naming the flag. */
function positive(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${flag} must be a positive integer (got "${raw}"), e.g. --${flag} 100`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string', default: DEFAULT_DATABASE_URL },
      changes: { type: 'string', default: '2000' },
      parallel: { type: 'string', default: '8' },
      contenders: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '200' },
    },
  });
  const options: BenchOptions = {
    changes: positive('changes', values.changes),
    parallel: positive('parallel', values.parallel),
    contenders: positive('contenders', values.contenders),
    contentionRounds: positive('rounds', values.rounds),
  };
  const results: (BenchResult | { store: string; error: string })[] = [];
  results.push(await benchSqlite(options));
  try {
    results.push(await benchPostgres(values['database-url'], options));
  } catch (err) {
    results.push({ store: 'postgres', error: err instanceof Error ? err.message : String(err) });
  }

  const fmt = (n: number, digits = 0) => n.toFixed(digits);
  const rows = [
    [
      'store',
      'claims/s sequential',
      `claims/s ${options.parallel}-way`,
      `p50 ms @${options.contenders}`,
      `p99 ms @${options.contenders}`,
      'max ms',
      'one winner',
    ],
    ...results.map((r) =>
      'error' in r
        ? [r.store, `unavailable: ${r.error}`, '', '', '', '', '']
        : [
            r.store,
            fmt(r.sequentialPerSec),
            fmt(r.parallelPerSec),
            fmt(r.p50Ms, 2),
            fmt(r.p99Ms, 2),
            fmt(r.maxMs, 2),
            r.badRounds === 0
              ? `${options.contentionRounds}/${options.contentionRounds}`
              : `FAILED in ${r.badRounds}`,
          ],
    ),
  ];
  console.log(
    `Confirm-claims: each claims/s iteration creates a pending Change and claims it (pending -> applying);\n` +
      `${options.changes} changes per run. Contention: ${options.contenders} concurrent claims on one Change, ` +
      `${options.contentionRounds} rounds; latency of every claim call.\n`,
  );
  console.log(table(rows));
  if (results.some((r) => 'badRounds' in r && r.badRounds > 0)) process.exitCode = 1;
}

await main();
