/**
 * Watches against the real simulator over HTTP, through the real API client:
 * a vessel failed by the control endpoint alerts once after the settle time
 * and recovers when started again; a Site outage leaves the fleets of its
 * Location's regions Degraded, which posts one alert for the Site naming
 * every fleet behind it (issue 38.6), edited as each recovers; without the
 * Locations the fleets are grouped under their reason, the Sites unknown.
 * Four lists per poll while nothing is Degraded, and the game server
 * counts asked for.
 */
import { afterAll, afterEach, beforeEach, expect, it } from '@jest/globals';
import type { Armada } from '../../src/api-shapes/armada-resources.js';
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

it('posts one alert for a Site outage naming every fleet behind it, edits it as each recovers, closes it with the Site', async () => {
  await siteDown(sim, DUEL_SITE, 'connection lost');
  await run(3 * 60_000);
  expect(messenger.posts).toEqual([
    expect.objectContaining({
      kind: 'Site',
      name: DUEL_SITE,
      state: 'Error',
      reason: 'connection lost',
      detail: 'Location fra-bm-1',
      fleets: [
        { kind: 'Armada', name: 'arena-eu-central', region: 'eu-central' },
        { kind: 'Armada', name: 'duel', region: 'eu-central' },
        { kind: 'ArmadaSet', name: 'arena' },
      ],
    }),
  ]);
  // duel moves off the bare-metal type, whose Location holds the Site: it recovers, the Site does not.
  const duel = sim.state.getArmada('dev', 'duel') as Armada;
  await callJson(sim, '/api/armada/v1/environments/dev/armadas/duel', 200, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { spec: { distribution: duel.spec.distribution.filter((d) => d.name === 'cloud') } },
  });
  await run(60_000);
  expect(messenger.posts).toHaveLength(1);
  expect(messenger.updates.at(-1)).toMatchObject({
    name: DUEL_SITE,
    fleets: [
      { kind: 'Armada', name: 'arena-eu-central', region: 'eu-central' },
      { kind: 'ArmadaSet', name: 'arena' },
      { kind: 'Armada', name: 'duel', region: 'eu-central', recovered: true },
    ],
  });
  expect(messenger.updates.at(-1)?.recoveredAt).toBeUndefined();
  await siteDown(sim, DUEL_SITE);
  await run(3 * 60_000);
  expect(messenger.posts).toHaveLength(1);
  expect(messenger.updates.at(-1)).toMatchObject({ name: DUEL_SITE, recoveredAt: expect.any(Number) });
});

it('says the Sites are unknown, never Connected, when the Locations are refused', async () => {
  sim.setFaults([{ method: 'GET', path: '/api/core/v1/locations', status: 403 }]);
  await siteDown(sim, DUEL_SITE, 'connection lost');
  await run(3 * 60_000);
  expect(messenger.posts).toEqual([
    expect.objectContaining({
      kind: 'Degraded',
      detail: 'the Sites behind it are unknown: the Locations could not be read (HTTP 403: not permitted)',
    }),
  ]);
  expect(messenger.posts[0]?.fleets?.map((f) => f.name)).toEqual(['arena-eu-central', 'duel', 'arena']);
});
