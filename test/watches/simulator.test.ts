/**
 * Watches against the real simulator over HTTP, through the real API client:
 * a vessel failed by the control endpoint alerts once after the settle time
 * and recovers when started again; a Site outage leaves the Armada of its
 * region Degraded, which alerts with the reason and the Site named (one Site
 * and one Region list while Degraded). Four lists per poll otherwise, and
 * the game server counts asked for.
 */
import { afterAll, afterEach, beforeEach, expect, it } from '@jest/globals';
import { createGameFabricClient } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import type { Store } from '../../src/store/types.js';
import type { Watcher } from '../../src/watches/watcher.js';
import { callJson } from '../simulator/helpers.js';
import { endReplicaStores, openReplicaStores, RecordingMessenger, watcherFor } from './harness.js';
import { DUEL_SITE, siteDown } from './sim-control.js';

afterAll(endReplicaStores);

let sim: Simulator;
let clock: ManualClock;
let close: () => Promise<void>;
let store: Store;
let watcher: Watcher;
let messenger: RecordingMessenger;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));
  sim = await startSimulator({ clock, stepMs: 1000 });
  const opened = await openReplicaStores('sqlite', 1);
  close = opened.close;
  store = opened.stores[0] as Store;
  const client = createGameFabricClient({ baseUrl: sim.url, auth: { token: sim.token }, clock });
  messenger = new RecordingMessenger();
  watcher = watcherFor('r1', store, client, messenger, clock);
  await store.addWatch({
    workspace: 'T1',
    channel: 'C1',
    env: 'dev',
    createdBy: 'U1',
    createdAt: clock.now(),
  });
});
afterEach(async () => {
  await sim.stop();
  await close();
});

async function run(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 10_000) {
    await watcher.tick();
    clock.advance(10_000);
  }
}

it('alerts once when a vessel fails, and edits the alert when it runs again', async () => {
  await run(60_000);
  await callJson(sim, '/_sim/vessels/dev/duel-1/fail', 200, {
    method: 'POST',
    body: { reason: 'OOMKilled' },
  });
  await run(3 * 60_000);
  expect(messenger.posts).toEqual([
    expect.objectContaining({
      kind: 'Vessel',
      name: 'duel-1',
      env: 'dev',
      state: 'Error',
      reason: 'OOMKilled',
    }),
  ]);
  await callJson(sim, '/_sim/vessels/dev/duel-1/fail', 200, { method: 'POST', body: {} });
  await run(3 * 60_000);
  expect(messenger.posts).toHaveLength(1);
  expect(messenger.updates).toEqual([
    expect.objectContaining({ name: 'duel-1', recoveredAt: expect.any(Number) }),
  ]);
  const lists = (await callJson<{ method: string; path: string }[]>(sim, '/_sim/requests', 200)).filter(
    (r) => r.method === 'GET' && r.path.includes('/environments/dev/'),
  );
  // 7 minutes at one poll per 30 s, four lists each and the ArmadaGameServerStates asked for (not served here: 404).
  expect(lists.length).toBe(14 * 5);
});

it('alerts on an Armada Degraded by a Site outage, naming the Site, and recovers with it', async () => {
  await siteDown(sim, DUEL_SITE, 'connection lost');
  await run(3 * 60_000);
  const duel = messenger.posts.find((p) => p.name === 'duel');
  expect(duel).toMatchObject({
    kind: 'Armada',
    state: 'Degraded',
    reason: `could not sync to site ${DUEL_SITE} (Error: connection lost)`,
    detail: `site ${DUEL_SITE}: Error, connection lost`,
  });
  await siteDown(sim, DUEL_SITE);
  await run(3 * 60_000);
  expect(messenger.updates.map((u) => u.name)).toContain('duel');
});
