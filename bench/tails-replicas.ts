/**
 * Issue 22.1: live tails over several replicas against Slack's limits. For 1,
 * 3 and 5 replicas (whole bots, started as main.ts starts them) on one store
 * (a SQLite file they share; PostgreSQL with --database-url), `--tails` tails
 * are started on the replicas in turn and their Vessels write lines for
 * `--minutes` of a ManualClock, against the Slack stand-in enforcing Tier 3
 * (chat.update: 50 a minute for the workspace) and one post a second a
 * channel (short bursts of two) on that clock. Simulated time: the clock
 * moves only while no call is under way, so minutes are exact and a run
 * takes seconds. Each run prints chat.update calls a minute (average and
 * busiest minute), 429s, and the least and most edits a tail got.
 * `--alone` runs the same with each replica pacing its tails by itself, as
 * before the budget was shared (the figures issue 22.1 reported).
 * Run: npx tsx bench/tails-replicas.ts [--tails 12] [--minutes 3] [--alone] [--database-url postgres://...]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { SharedSlots } from '../src/slack-budget/shared-slots.js';
import {
  busiestMinute,
  type ReplicaStore,
  startTailReplicas,
  TIER3_PER_MINUTE,
  updatesByTail,
} from '../test/slack/tails/replicas.js';

const { values } = parseArgs({
  options: {
    tails: { type: 'string', default: '12' },
    minutes: { type: 'string', default: '3' },
    alone: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
  strict: true,
});
const tails = Number(values.tails);
const minutes = Number(values.minutes);
if (!(tails >= 1) || !(minutes >= 1)) throw new Error('--tails and --minutes must be numbers >= 1');
const databaseUrl = values['database-url'];

/** Where one run keeps its records: a fresh SQLite file, or a fresh PostgreSQL schema (dropped after). */
async function freshStore(run: number): Promise<{ store: ReplicaStore; drop(): Promise<void> }> {
  if (!databaseUrl) return { store: { kind: 'sqlite' }, drop: async () => {} };
  const schema = `bench_replicas_${process.pid}_${run}`;
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    store: { kind: 'postgres', databaseUrl: url.toString() },
    drop: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** Slots that never say no: each replica is alone with its own MessageBudget (the behaviour before 22.1). */
const alone: SharedSlots = {
  take: async () => ({ taken: true }),
  hold: async () => {},
  share: async () => 1,
};

async function run(replicaCount: number): Promise<boolean> {
  const started = performance.now();
  const { store, drop } = await freshStore(replicaCount);
  const r = await startTailReplicas({
    replicas: replicaCount,
    store,
    extraVessels: tails,
    ...(values.alone ? { tails: { sharedSlots: () => alone } } : {}),
  });
  try {
    const vessels = Array.from({ length: tails }, (_, i) => `load-${i}`);
    await r.followRoundRobin(vessels);
    // A minute to settle in, then the measured minutes.
    await r.firehose(vessels, 60_000, { stepMs: 500 });
    const from = r.clock.now();
    const before429 = r.slack.rateLimited.length;
    await r.firehose(vessels, minutes * 60_000, { stepMs: 500 });
    const updates = r.slack.callsTo('chat.update').filter((c) => c.at >= from);
    const answered = updates.filter((c) => c.status === 200).length;
    const refused = r.slack.rateLimited.length - before429;
    const attempted = updates.length;
    const busiest = busiestMinute(r.slack.calls, 'chat.update', from);
    const perTail = [...updatesByTail(r.slack.calls, (await r.bots[0]?.tails()) ?? [], from).values()];
    const pass = refused === 0 && busiest <= TIER3_PER_MINUTE;
    console.log(
      `${String(replicaCount).padStart(2)} replica${replicaCount === 1 ? ' ' : 's'}: ` +
        `chat.update ${(attempted / minutes).toFixed(1)}/min sent, ${(answered / minutes).toFixed(1)}/min answered, ` +
        `busiest minute ${busiest} (limit ${TIER3_PER_MINUTE}), 429s ${refused}, ` +
        `edits per tail ${Math.min(...perTail)}..${Math.max(...perTail)} ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s real) ${pass ? 'PASS' : 'FAIL'}`,
    );
    return pass;
  } finally {
    await r.stop();
    await drop();
  }
}

console.log(
  `tails over replicas: ${tails} tails started in turn, ${minutes} min measured after a minute's warm-up, ` +
    `${databaseUrl ? 'postgres' : 'sqlite'} store, ${values.alone ? 'each replica alone (before 22.1)' : 'budget shared through the store'}`,
);
const results: boolean[] = [];
for (const n of [1, 3, 5]) results.push(await run(n));
process.exit(results.every(Boolean) || values.alone ? 0 : 1);
