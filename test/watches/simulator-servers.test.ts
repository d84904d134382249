/**
 * The per-object alerts of issue 38 against the real simulator over HTTP,
 * through the real API client, on both shapes: with and without
 * ArmadaGameServerStates, with and without status counts. A Vessel whose
 * image crashes never runs and alerts after the documented 10 minutes; a
 * Scale to Zero Armada whose new build never becomes Ready panics
 * (ScaleUpPanicked) and alerts on every shape (the state is served on
 * both); without Scale to Zero, no Ready servers while a buffer is kept
 * alerts wherever counts can be read, and nothing claims it where none can.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { createGameFabricClient } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import type { Store } from '../../src/store/types.js';
import type { Watcher } from '../../src/watches/watcher.js';
import { endReplicaStores, openReplicaStores, RecordingMessenger, watcherFor } from './harness.js';
import { CRASHING_IMAGE as CRASHING, crashDuel, simSend } from './sim-control.js';

afterAll(endReplicaStores);

const SHAPES = [
  { serverStates: true, fleetCounts: false },
  { serverStates: true, fleetCounts: true },
  { serverStates: false, fleetCounts: true },
  { serverStates: false, fleetCounts: false },
];

describe.each(SHAPES)('on the simulator (serverStates $serverStates, fleetCounts $fleetCounts)', (shape) => {
  let sim: Simulator;
  let clock: ManualClock;
  let close: () => Promise<void>;
  let watcher: Watcher;
  let messenger: RecordingMessenger;

  async function setup() {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));
    sim = await startSimulator({ clock, stepMs: 1000, ...shape });
    const opened = await openReplicaStores('sqlite', 1);
    close = opened.close;
    const store = opened.stores[0] as Store;
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
  }
  afterEach(async () => {
    await sim.stop();
    await close();
  });
  const run = async (ms: number) => {
    for (let t = 0; t < ms; t += 10_000) {
      await watcher.tick();
      clock.advance(10_000);
    }
  };

  it('alerts on a Vessel whose image crashes after 10 minutes out of Running, and recovers once it runs', async () => {
    await setup();
    await simSend(sim, 'POST', '/api/formation/v1/environments/dev/vessels', {
      apiVersion: 'formation/v1beta1',
      kind: 'Vessel',
      metadata: { name: 'lobby', environment: 'dev' },
      spec: {
        region: 'eu-central',
        template: { spec: { containers: [{ name: 'game-server', branch: 'dev', image: CRASHING }] } },
      },
    });
    sim.setCrashingImage('dev', CRASHING, 'exit code 1');
    await run(9 * 60_000);
    expect(messenger.posts.filter((p) => p.kind === 'Vessel')).toEqual([]);
    await run(2 * 60_000);
    expect(messenger.posts.filter((p) => p.kind === 'Vessel')).toEqual([
      expect.objectContaining({
        name: 'lobby',
        state: 'Not running',
        reason: expect.stringMatching(/^out of Running for more than 10 min \(now /),
      }),
    ]);
    sim.setCrashingImage('dev', CRASHING, undefined);
    await run(3 * 60_000);
    expect(messenger.updates.map((u) => u.name)).toContain('lobby');
  });

  it('alerts ScaleUpPanicked when a Scale to Zero Armada has no Ready servers (a build that does not start)', async () => {
    await setup();
    await crashDuel(sim, true);
    await run(2 * 60_000);
    const duel = messenger.posts.find((p) => p.name === 'duel');
    expect(duel).toMatchObject({ kind: 'Armada', state: 'ScaleUpPanicked' });
    expect(duel?.reason).toMatch(/^Scale to Zero scaled region type cloud up in a panic/);
    if (shape.serverStates) expect(duel?.reason).toContain('Unhealthy (ArmadaGameServerStates)');
  });

  it('alerts on no Ready servers while a buffer is kept where counts can be read, and claims nothing where none can', async () => {
    await setup();
    await crashDuel(sim, false);
    await run(2 * 60_000);
    const duel = messenger.posts.find((p) => p.name === 'duel');
    if (!shape.serverStates && !shape.fleetCounts) {
      expect(duel).toBeUndefined();
      return;
    }
    expect(duel).toMatchObject({ kind: 'Armada', state: 'No ready servers' });
    expect(duel?.reason).toContain(shape.serverStates ? '(ArmadaGameServerStates)' : "(the status's counts)");
    expect(duel?.reason).toContain('it keeps a buffer of');
  });
});
