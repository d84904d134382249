/**
 * Issue 29: what watches cost. For 1, 3 and 5 replicas (watchers on one
 * store: a shared SQLite file, or PostgreSQL with --database-url) and 1, 10
 * and 50 channels watching `dev`, the simulator runs `--minutes` of a
 * ManualClock; a minute in, one vessel fails and one Armada's build crashes
 * (Degraded); half-way both recover. Every replica ticks every 10 s. Prints
 * the API's list reads a minute (from the simulator's request log) and the
 * Slack calls per alert (each post and edit the alert messenger makes, per
 * alert message). Run: npx tsx bench/watches.ts [--minutes 10] [--database-url postgres://...]
 */
import { parseArgs } from 'node:util';
import { createGameFabricClient } from '../src/gamefabric/client.js';
import { ManualClock } from '../src/runtime/clock.js';
import { startSimulator } from '../src/simulator/index.js';
import type { Store } from '../src/store/types.js';
import {
  openReplicaStores,
  RecordingMessenger,
  type StoreKind,
  watcherFor,
} from '../test/watches/harness.js';
import { crashDuel, failVessel, takeApiReads } from '../test/watches/sim-control.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, 'database-url': { type: 'string' } },
  strict: true,
});
const minutes = Number(values.minutes);
if (!(minutes >= 4)) throw new Error('--minutes must be a number >= 4');
if (values['database-url']) process.env.HARBOR_TEST_DATABASE_URL = values['database-url'];
const kind: StoreKind = values['database-url'] ? 'postgres' : 'sqlite';

async function one(replicas: number, channels: number) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));
  const sim = await startSimulator({ clock, stepMs: 1000 });
  const { stores, close } = await openReplicaStores(kind, replicas);
  const messenger = new RecordingMessenger();
  const client = createGameFabricClient({ baseUrl: sim.url, auth: { token: sim.token }, clock });
  const watchers = stores.map((s, i) => watcherFor(`r${i + 1}`, s, client, messenger, clock));
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
  // The Armada runs a build that crashes only once told to; the start's reads are not counted.
  await crashDuel(sim);
  await takeApiReads(sim);
  const ticks = (minutes * 60_000) / 10_000;
  for (let t = 0; t < ticks; t++) {
    if (t === 6) {
      await failVessel(sim, 'dev', 'duel-1', 'OOMKilled');
      await crashDuel(sim, 'exit code 137');
    }
    if (t === Math.floor(ticks / 2)) {
      await failVessel(sim, 'dev', 'duel-1');
      await crashDuel(sim);
    }
    await Promise.all(watchers.map((w) => w.tick()));
    clock.advance(10_000);
  }
  const reads = await takeApiReads(sim);
  await sim.stop();
  await close();
  const alerts = messenger.posts.length;
  return {
    readsPerMinute: reads / minutes,
    alerts,
    slackPerAlert: alerts ? (messenger.posts.length + messenger.updates.length) / alerts : 0,
  };
}

console.log(`watches bench: ${minutes} simulated minutes, interval 30 s, settle 60 s, store ${kind}`);
console.log('replicas  channels  API reads/min  alert messages  Slack calls/alert');
for (const replicas of [1, 3, 5]) {
  for (const channels of [1, 10, 50]) {
    const r = await one(replicas, channels);
    console.log(
      `${String(replicas).padStart(8)}  ${String(channels).padStart(8)}  ${r.readsPerMinute.toFixed(1).padStart(13)}  ${String(r.alerts).padStart(14)}  ${r.slackPerAlert.toFixed(2).padStart(17)}`,
    );
  }
}
