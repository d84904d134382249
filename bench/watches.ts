/**
 * Issue 29: what watches cost. For 1, 3 and 5 replicas (each a watch loop
 * with its own StoreSlots and the real alert messenger, on one store: a
 * shared SQLite file, or PostgreSQL with --database-url) and 1, 10 and 50
 * channels watching `dev`, the simulator runs `--minutes` of a ManualClock:
 * a minute in, one vessel fails and a Site goes down (the fleets of its
 * region Degraded); half-way both recover. Every replica ticks every 10 s; while alerts wait
 * for slots of the shared Slack budget the clock moves in 100 ms steps.
 * Prints the API's list reads a minute (the simulator's request log), the
 * Slack calls per alert message (posts and edits that reached Slack), the
 * busiest minute of posts, and how long after the failure the last alert
 * was posted. Run: npx tsx bench/watches.ts [--minutes 10] [--database-url postgres://...]
 */
import { parseArgs } from 'node:util';
import { createGameFabricClient } from '../src/gamefabric/client.js';
import { ManualClock } from '../src/runtime/clock.js';
import { silentLogger } from '../src/runtime/logger.js';
import { startSimulator } from '../src/simulator/index.js';
import { slackAlertMessenger } from '../src/slack/alerts/messenger.js';
import { SlackGateway } from '../src/slack/gateway/gateway.js';
import type { Store } from '../src/store/types.js';
import { Watcher } from '../src/watches/watcher.js';
import { recordingFetch } from '../test/slack/gateway/recording-fetch.js';
import { endReplicaStores, everyone, openReplicaStores, type StoreKind } from '../test/watches/harness.js';
import { DUEL_SITE, failVessel, siteDown, takeApiReads } from '../test/watches/sim-control.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, 'database-url': { type: 'string' } },
  strict: true,
});
const minutes = Number(values.minutes);
if (!(minutes >= 4)) throw new Error('--minutes must be a number >= 4');
if (values['database-url']) process.env.HARBOR_TEST_DATABASE_URL = values['database-url'];
const kind: StoreKind = values['database-url'] ? 'postgres' : 'sqlite';

function busiestMinute(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (j < sorted.length && (sorted[j] as number) < (sorted[i] as number) + 60_000) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

async function one(replicas: number, channels: number) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));
  const sim = await startSimulator({ clock, stepMs: 1000 });
  const { stores, close } = await openReplicaStores(kind, replicas);
  const client = createGameFabricClient({ baseUrl: sim.url, auth: { token: sim.token }, clock });
  // Slack as a recording transport under each replica's gateway: each call at the clock's time it left.
  const slack = recordingFetch(clock);
  const calls = (method: string) => slack.calls.filter((c) => c.method === method);
  const watchers = stores.map((store, i) => {
    const gateway = new SlackGateway({
      token: 'xoxb-bench',
      clientOptions: { fetch: slack.fetch, retryConfig: { retries: 0 } },
      store: () => store,
      replicaId: `r${i}`,
      clock,
      logger: silentLogger,
    });
    let n = 0;
    return new Watcher({
      store,
      source: client,
      messenger: slackAlertMessenger({ gateway }),
      mayRead: everyone,
      intervalMs: 30_000,
      settleMs: 60_000,
      replica: `r${i}`,
      newId: () => `r${i}-${++n}`,
      logger: silentLogger,
      clock,
    });
  });
  const store = stores[0] as Store;
  for (let c = 0; c < channels; c++) {
    await store.addWatch({
      workspace: 'T1',
      channel: `C${c}`,
      env: 'dev',
      createdBy: 'U1',
      createdAt: clock.now(),
    });
  }
  // The start's reads are not counted.
  await takeApiReads(sim);
  const start = clock.now();
  let failedAt = 0;
  const rounds = (minutes * 60_000) / 10_000;
  for (let round = 0; round < rounds; round++) {
    const roundStart = clock.now();
    if (round === 6) {
      failedAt = clock.now();
      await failVessel(sim, 'dev', 'duel-1', 'OOMKilled');
      await siteDown(sim, DUEL_SITE, 'connection lost');
    }
    if (round === Math.floor(rounds / 2)) {
      await failVessel(sim, 'dev', 'duel-1');
      await siteDown(sim, DUEL_SITE);
    }
    let done = false;
    const ticks = Promise.all(watchers.map((w) => w.tick())).then(() => {
      done = true;
    });
    while (!done) {
      await Promise.race([ticks, clock.whenSleeping(1)]);
      if (!done) await clock.advance(100);
    }
    if (clock.now() < roundStart + 10_000) await clock.advance(roundStart + 10_000 - clock.now());
  }
  const reads = await takeApiReads(sim);
  const elapsedMinutes = (clock.now() - start) / 60_000;
  await sim.stop();
  await close();
  const posts = calls('chat.postMessage').map((c) => c.at);
  const updates = calls('chat.update').length;
  return {
    readsPerMinute: reads / elapsedMinutes,
    alerts: calls('chat.postMessage').length,
    slackPerAlert: posts.length ? (posts.length + updates) / posts.length : 0,
    busiest: busiestMinute(posts),
    lastPostedAfter: posts.length ? Math.max(...posts) - failedAt : 0,
  };
}

console.log(`watches bench: ${minutes} simulated minutes, interval 30 s, settle 60 s, store ${kind}`);
console.log(
  'replicas  channels  API reads/min  alert messages  Slack calls/alert  posts in busiest minute  last alert after',
);
for (const replicas of [1, 3, 5]) {
  for (const channels of [1, 10, 50]) {
    const r = await one(replicas, channels);
    console.log(
      [
        String(replicas).padStart(8),
        String(channels).padStart(8),
        r.readsPerMinute.toFixed(1).padStart(13),
        String(r.alerts).padStart(14),
        r.slackPerAlert.toFixed(2).padStart(17),
        String(r.busiest).padStart(23),
        `${(r.lastPostedAfter / 1000).toFixed(0)} s`.padStart(16),
      ].join('  '),
    );
  }
}
await endReplicaStores();
