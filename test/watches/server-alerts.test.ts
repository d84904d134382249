/**
 * The per-object alerts of issue 38 on each store, from listings the test
 * sets: an Armada whose Scale to Zero state is ScaleUpPanicked; an Armada
 * with no Ready game servers while its buffer is above zero, judged from
 * ArmadaGameServerStates where they are read and from the status counts
 * otherwise (never from a minimum alone, and not at all with neither); a
 * Vessel out of Running for HARBOR_WATCH_VESSEL_STUCK_S (default the
 * documented 600 s), whatever state it cycles through. Each alert names what
 * it saw and recovers with the object. Time is a ManualClock.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import type { Armada } from '../../src/api-shapes/armada-resources.js';
import type { ArmadaServerStates } from '../../src/api-shapes/armada-server-states.js';
import { ApiError } from '../../src/gamefabric/errors.js';
import { ManualClock } from '../../src/runtime/clock.js';
import type { Store } from '../../src/store/types.js';
import {
  endReplicaStores,
  FakeApi,
  openReplicaStores,
  RecordingMessenger,
  STORE_KINDS,
  watcherFor,
} from './harness.js';

afterAll(endReplicaStores);

const T0 = Date.UTC(2026, 0, 1, 14, 0, 0);

/** The fake API with ArmadaGameServerStates: a list the test sets, or a refusal. */
class ApiWithStates extends FakeApi {
  states: ArmadaServerStates[] = [];
  statesRefused: number | undefined;
  listArmadaServerStates = async (_env: string): Promise<ArmadaServerStates[]> => {
    if (this.statesRefused !== undefined) {
      const path = '/api/armada/v1/environments/prod/armadagameserverstates';
      throw new ApiError({
        status: this.statesRefused,
        reason: 'Forbidden',
        message: `GET ${path}: ${this.statesRefused}`,
        apiMessage: 'forbidden',
        request: { method: 'GET', path },
      });
    }
    return structuredClone(this.states);
  };
}

function armada(
  name: string,
  types: { name: string; min?: number; buffer?: number; max?: number }[],
  status = {},
) {
  return {
    metadata: { name },
    spec: {
      region: 'eu',
      distribution: types.map((t) => ({
        name: t.name,
        minReplicas: t.min ?? 0,
        bufferSize: t.buffer ?? 0,
        maxReplicas: t.max ?? 10,
      })),
      template: { spec: { containers: [{ name: 'game', image: 'game:1' }] } },
    },
    status: { state: 'Synced', ...status },
  } as Armada;
}

const states = (name: string, counts: Record<string, number>): ArmadaServerStates => ({
  armada: name,
  states: counts,
  byType: new Map(),
  revisions: [],
});

describe.each(STORE_KINDS)('per-object server alerts on %s', (kind) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function setup(options: { vesselStuckMs?: number } = {}) {
    const opened = await openReplicaStores(kind, 1);
    close = opened.close;
    const clock = new ManualClock(T0);
    const api = new ApiWithStates();
    const messenger = new RecordingMessenger();
    const store = opened.stores[0] as Store;
    const watcher = watcherFor('r1', store, api, messenger, clock, options);
    await store.addWatch({ workspace: 'T1', channel: 'C1', env: 'prod', createdBy: 'U1', createdAt: T0 });
    const run = async (ms: number) => {
      for (let t = 0; t < ms; t += 10_000) {
        await watcher.tick();
        clock.advance(10_000);
      }
    };
    return { api, messenger, run };
  }

  it('alerts on ScaleUpPanicked, naming the region type and the counts, and recovers when it is scaled up calmly', async () => {
    const { api, messenger, run } = await setup();
    api.armadas = [
      armada(
        'duel',
        [
          { name: 'baremetal', buffer: 2 },
          { name: 'cloud', buffer: 2 },
        ],
        {
          scaleToZero: [
            { regionType: 'baremetal', state: 'ScaledUpLocked' },
            { regionType: 'cloud', state: 'ScaleUpPanicked' },
          ],
        },
      ),
    ];
    api.states = [states('duel', { Ready: 0, Allocated: 1, Unhealthy: 2 })];
    await run(2 * 60_000);
    expect(messenger.posts).toEqual([
      expect.objectContaining({
        kind: 'Armada',
        name: 'duel',
        state: 'ScaleUpPanicked',
        reason:
          'Scale to Zero scaled region type cloud up in a panic: no Ready game servers for several checks; game servers: 1 Allocated, 2 Unhealthy (ArmadaGameServerStates)',
      }),
    ]);
    api.armadas = [
      armada(
        'duel',
        [
          { name: 'baremetal', buffer: 2 },
          { name: 'cloud', buffer: 2 },
        ],
        {
          scaleToZero: [{ regionType: 'cloud', state: 'ScaledUp' }],
        },
      ),
    ];
    api.states = [states('duel', { Ready: 2, Allocated: 1 })];
    await run(2 * 60_000);
    expect(messenger.updates).toEqual([
      expect.objectContaining({ name: 'duel', recoveredAt: expect.any(Number) }),
    ]);
  });

  it('alerts on no Ready servers while the buffer is above zero, from ArmadaGameServerStates', async () => {
    const { api, messenger, run } = await setup();
    api.armadas = [
      armada('duel', [{ name: 'baremetal', buffer: 2 }]),
      // Min 3, buffer 0: every server may be in a match; not an outage.
      armada('arena', [{ name: 'baremetal', min: 3 }]),
    ];
    api.states = [
      states('duel', { Ready: 0, Allocated: 1, Starting: 2 }),
      states('arena', { Ready: 0, Allocated: 3 }),
    ];
    await run(2 * 60_000);
    expect(messenger.posts).toEqual([
      expect.objectContaining({
        name: 'duel',
        state: 'No ready servers',
        reason:
          'game servers: 1 Allocated, 2 Starting (ArmadaGameServerStates); it keeps a buffer of 2 Ready',
      }),
    ]);
  });

  it('judges from the status counts when the states are not readable (403), and not at all with neither', async () => {
    const { api, messenger, run } = await setup();
    api.statesRefused = 403;
    api.armadas = [
      armada('counted', [{ name: 'baremetal', buffer: 1 }], { replicas: 2, readyReplicas: 0 }),
      // The public shape: no counts anywhere, so nothing can be said about its servers.
      armada('bare', [{ name: 'baremetal', buffer: 1 }]),
    ];
    await run(2 * 60_000);
    expect(messenger.posts).toEqual([
      expect.objectContaining({
        name: 'counted',
        state: 'No ready servers',
        reason: "2 up, 0 ready (the status's counts); it keeps a buffer of 1 Ready",
      }),
    ]);
  });

  it('does not count a type parked by Scale to Zero or drained (max 0) as keeping a buffer', async () => {
    const { api, messenger, run } = await setup();
    api.armadas = [
      armada(
        'duel',
        [
          { name: 'baremetal', buffer: 0 },
          { name: 'cloud', buffer: 2 },
          { name: 'old', buffer: 2, max: 0 },
        ],
        { scaleToZero: [{ regionType: 'cloud', state: 'ScaledToZero' }] },
      ),
    ];
    api.states = [states('duel', { Ready: 0, Allocated: 2 })];
    await run(2 * 60_000);
    expect(messenger.posts).toEqual([]);
  });

  it('alerts on a Vessel out of Running past the documented 10 minutes, whatever state it cycles through', async () => {
    const { api, messenger, run } = await setup();
    api.setVessel('lobby', 'Starting');
    api.setVessel('paused', 'Suspended');
    await run(9 * 60_000);
    api.setVessel('lobby', 'Terminating', 'Starting timeout');
    await run(60_000);
    api.setVessel('lobby', 'Pending');
    expect(messenger.posts).toEqual([]);
    await run(60_000);
    expect(messenger.posts).toEqual([
      expect.objectContaining({
        kind: 'Vessel',
        name: 'lobby',
        state: 'Not running',
        reason: 'out of Running for more than 10 min (now Pending)',
      }),
    ]);
    api.setVessel('lobby', 'Running');
    await run(2 * 60_000);
    expect(messenger.updates).toEqual([
      expect.objectContaining({ name: 'lobby', recoveredAt: expect.any(Number) }),
    ]);
  });

  it('takes the stuck time from HARBOR_WATCH_VESSEL_STUCK_S (the watcher is handed it), and a Vessel starting normally never alerts', async () => {
    const { api, messenger, run } = await setup({ vesselStuckMs: 120_000 });
    api.setVessel('slow', 'Starting');
    api.setVessel('quick', 'Starting');
    await run(60_000);
    api.setVessel('quick', 'Running');
    await run(90_000);
    expect(messenger.posts.map((p) => [p.name, p.reason])).toEqual([
      ['slow', 'out of Running for more than 2 min (now Starting)'],
    ]);
  });
});
