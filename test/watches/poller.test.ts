/**
 * Watches over replicas, on each store: one alert per episode per channel
 * whatever the number of replicas, the recovery edits that message, settle
 * and flapping, takeover after the poller dies, unwatch, a paused poll after
 * API errors, and the API-cost bound (one list per kind per interval).
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { ApiError } from '../../src/gamefabric/errors.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import type { Store } from '../../src/store/types.js';
import { pollEnvironment } from '../../src/watches/poll.js';
import { pollerLease, type Watcher } from '../../src/watches/watcher.js';
import { countingStore } from '../support/counting-store.js';
import {
  endReplicaStores,
  FakeApi,
  openReplicaStores,
  RecordingMessenger,
  STORE_KINDS,
  watcherFor,
} from './harness.js';

afterAll(endReplicaStores);

const INTERVAL = 30_000;
const SETTLE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 14, 0, 0);

describe.each(STORE_KINDS)('watches on %s', (kind) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function setup(replicas = 3, channels = ['C1', 'C2']) {
    const opened = await openReplicaStores(kind, replicas);
    close = opened.close;
    const clock = new ManualClock(T0);
    const api = new FakeApi();
    const messenger = new RecordingMessenger();
    const watchers = opened.stores.map((s, i) => watcherFor(`r${i + 1}`, s, api, messenger, clock));
    const store = opened.stores[0] as Store;
    for (const channel of channels) {
      await store.addWatch({ workspace: 'T1', channel, env: 'prod', createdBy: 'U1', createdAt: T0 });
    }
    /** Every replica ticks at once, then time moves one tick. */
    const tick = async (ws: Watcher[] = watchers) => {
      await Promise.all(ws.map((w) => w.tick()));
      clock.advance(10_000);
    };
    const run = async (ms: number, ws?: Watcher[]) => {
      for (let t = 0; t < ms; t += 10_000) await tick(ws);
    };
    return { stores: opened.stores, store, clock, api, messenger, watchers, tick, run };
  }

  it('posts one alert per episode per channel across three replicas, and recovery edits it', async () => {
    const { api, messenger, run, store } = await setup();
    api.setVessel('web-1', 'Running');
    await run(60_000);
    api.setVessel('web-1', 'Error', 'CrashLoopBackOff: game exited 1');
    await run(50_000);
    expect(messenger.posts).toHaveLength(0); // not yet settled
    await run(5 * 60_000);
    expect(messenger.postsIn('C1')).toHaveLength(1);
    expect(messenger.postsIn('C2')).toHaveLength(1);
    expect(messenger.posts[0]).toMatchObject({
      kind: 'Vessel',
      name: 'web-1',
      env: 'prod',
      state: 'Error',
      reason: 'CrashLoopBackOff: game exited 1',
    });

    api.setVessel('web-1', 'Running');
    await run(3 * 60_000);
    expect(messenger.posts).toHaveLength(2);
    expect(messenger.updates).toHaveLength(2);
    const open = await store.listAlerts({ env: 'prod', open: true });
    expect(open).toHaveLength(0);
    const [edited] = messenger.updates;
    const posted = (await store.listAlerts({ env: 'prod' })).find((a) => a.id === edited?.id);
    expect(edited?.messageTs).toBe(posted?.messageTs);
    expect(edited?.drawn).toBe('open'); // what the message showed before this edit
    expect(posted?.drawn).toBe('recovered');
    // Bad from the first Error reading to the first Running one: 6 min (the 50 s + 5 min run, rounded to ticks).
    expect(edited?.lastedMs).toBe(6 * 60_000);

    // A second episode is a second message.
    api.setVessel('web-1', 'Error', 'again');
    await run(2 * 60_000);
    expect(messenger.postsIn('C1')).toHaveLength(2);
  });

  it('opens one alert per channel even when two replicas poll at once (the store decides)', async () => {
    const { api, messenger, stores, clock, store } = await setup(3, ['C1']);
    api.setVessel('web-1', 'Error', 'boom');
    const deps = (s: Store, replica: string) => ({
      store: s,
      source: api,
      messenger,
      mayRead: async () => true,
      intervalMs: INTERVAL,
      settleMs: SETTLE,
      replica,
      newId: () => `${replica}-${clock.now()}`,
      logger: silentLogger,
      clock,
    });
    for (let i = 0; i < 4; i++) {
      // Each replica as if it alone held the lease (a paused holder waking after a takeover).
      await Promise.all(stores.map((s, n) => pollEnvironment(deps(s, `r${n}`), 'prod', clock.now())));
      clock.advance(INTERVAL);
    }
    expect(messenger.postsIn('C1')).toHaveLength(1);
    expect(await store.listAlerts({ env: 'prod' })).toHaveLength(1);
  });

  it('posts nothing for a blip shorter than the settle time, and one message for a flapping object', async () => {
    const { api, messenger, run } = await setup(3, ['C1']);
    api.setArmada('fleet-eu', 'Degraded', 'site unavailable');
    await run(40_000);
    api.setArmada('fleet-eu', 'Synced');
    await run(5 * 60_000);
    expect(messenger.posts).toHaveLength(0);

    // Flapping each poll for 20 minutes: one alert, no storm.
    for (let i = 0; i < 40; i++) {
      api.setArmada('fleet-eu', i % 2 === 0 ? 'Degraded' : 'Synced', 'site unavailable');
      await run(INTERVAL);
    }
    expect(messenger.posts).toHaveLength(1);
    expect(messenger.updates).toHaveLength(0);
    api.setArmada('fleet-eu', 'Synced');
    await run(3 * 60_000);
    expect(messenger.updates).toHaveLength(1);
  });

  /** Region eu (Location fra: Sites fra-01, fra-02), region us (Location sfo: Site sfo-01); fra-02 down. */
  function fraDown(api: FakeApi): void {
    api.sites = [
      { metadata: { name: 'fra-01' }, spec: {}, status: { state: 'Connected' } },
      { metadata: { name: 'fra-02' }, spec: {}, status: { state: 'Error', reason: 'connection lost' } },
      { metadata: { name: 'sfo-01' }, spec: {}, status: { state: 'Connected' } },
    ] as typeof api.sites;
    api.locations = [
      { metadata: { name: 'fra' }, spec: { sites: ['fra-01', 'fra-02'] } },
      { metadata: { name: 'sfo' }, spec: { sites: ['sfo-01'] } },
    ];
    api.regions = [
      { metadata: { name: 'eu' }, spec: { types: [{ name: 'baremetal', locations: ['fra'] }] } },
      { metadata: { name: 'us' }, spec: { types: [{ name: 'baremetal', locations: ['sfo'] }] } },
    ] as typeof api.regions;
  }

  it('posts one alert per Site down naming every fleet behind it, edits it as they recover, closes it when all have', async () => {
    const { api, messenger, run, store } = await setup(3, ['C1']);
    fraDown(api);
    api.setArmada('duel', 'Degraded', 'could not sync to site fra-02');
    api.setArmada('arena-eu', 'Degraded', 'could not sync to site fra-02');
    api.setArmada('lobby-us', 'Synced');
    await run(2 * 60_000);
    expect(messenger.posts).toHaveLength(1);
    expect(messenger.posts[0]).toMatchObject({
      kind: 'Site',
      name: 'fra-02',
      state: 'Error',
      reason: 'connection lost',
      detail: 'Location fra',
      fleets: [
        { kind: 'Armada', name: 'arena-eu', region: 'eu' },
        { kind: 'Armada', name: 'duel', region: 'eu' },
      ],
    });
    // One fleet recovers: the same message is edited, naming it recovered; nothing new is posted.
    api.setArmada('arena-eu', 'Synced');
    await run(60_000);
    expect(messenger.posts).toHaveLength(1);
    expect(messenger.updates.at(-1)).toMatchObject({
      name: 'fra-02',
      fleets: [
        { kind: 'Armada', name: 'duel', region: 'eu' },
        { kind: 'Armada', name: 'arena-eu', region: 'eu', recovered: true },
      ],
    });
    expect(messenger.updates.at(-1)?.recoveredAt).toBeUndefined();
    const edits = messenger.updates.length;
    await run(60_000);
    expect(messenger.updates).toHaveLength(edits); // nothing moved: no edit
    // The last one recovers: after the settle time the alert is closed in place.
    api.setArmada('duel', 'Synced');
    await run(2 * 60_000);
    expect(messenger.posts).toHaveLength(1);
    expect(messenger.updates.at(-1)).toMatchObject({ name: 'fra-02', recoveredAt: expect.any(Number) });
    expect(await store.listAlerts({ env: 'prod', open: true })).toEqual([]);
  });

  it('groups Degraded fleets under their reason when the Locations cannot be read, saying the Sites are unknown', async () => {
    const { api, messenger, run } = await setup(1, ['C1']);
    fraDown(api);
    api.refused.add('locations');
    api.setArmada('duel', 'Degraded', 'could not sync');
    api.setArmada('arena-eu', 'Degraded', 'could not sync');
    await run(2 * 60_000);
    expect(messenger.posts).toEqual([
      expect.objectContaining({
        kind: 'Degraded',
        name: 'could not sync',
        reason: 'could not sync',
        detail: 'the Sites behind it are unknown: the Locations could not be read (HTTP 403: not permitted)',
        fleets: [
          { kind: 'Armada', name: 'arena-eu', region: 'eu' },
          { kind: 'Armada', name: 'duel', region: 'eu' },
        ],
      }),
    ]);
    expect(JSON.stringify(messenger.posts)).not.toContain('Connected');
  });

  it('says the Sites are unknown when a Location a Region names is not listed, and Connected only on a full join', async () => {
    const { api, messenger, run } = await setup(1, ['C1']);
    fraDown(api);
    api.locations = api.locations.filter((l) => l.metadata.name !== 'fra');
    api.setArmada('duel', 'Degraded', 'could not sync');
    await run(2 * 60_000);
    expect(messenger.posts[0]?.detail).toBe(
      'the Sites behind it are unknown: Location fra is not in the Location list',
    );
    api.regions = [
      { metadata: { name: 'eu' }, spec: { types: [{ name: 'baremetal', locations: ['sfo'] }] } },
    ] as typeof api.regions;
    api.setArmada('other', 'Degraded', 'quota exceeded');
    await run(2 * 60_000);
    expect(messenger.posts.find((p) => p.name === 'quota exceeded')?.detail).toBe(
      'every Site of its regions (1) is Connected and not cordoned',
    );
  });

  it("keeps per-object alerts for causes of the object's own beside a Site alert", async () => {
    const { api, messenger, run } = await setup(1, ['C1']);
    fraDown(api);
    api.setArmada('duel', 'Degraded', 'could not sync');
    api.setArmada('fleet-us', 'Synced', undefined, { replicas: 2, readyReplicas: 0 }, 2);
    api.setVessel('stray', 'Error', 'OOMKilled');
    await run(2 * 60_000);
    expect(messenger.posts.map((p) => `${p.kind}/${p.name}`).sort()).toEqual(['Site/fra-02', 'Vessel/stray']);
    // Its 2 servers may all be allocated: with no buffer to keep Ready, 0 ready is no outage (server-alerts.test.ts).
    expect(messenger.posts.find((p) => p.name === 'fleet-us')).toBeUndefined();
  });

  it("keeps a fleet's own Degraded alert opened before grouping open while it is Degraded, and recovers it after", async () => {
    const { api, messenger, run, store } = await setup(1, ['C1']);
    // What an earlier version left: a trouble row and an open, posted alert for the fleet itself.
    await store.putTrouble({
      env: 'prod',
      objectKey: 'Armada/duel',
      kind: 'Armada',
      name: 'duel',
      state: 'Degraded',
      firstBadAt: T0 - 10 * 60_000,
      lastBadAt: T0,
    });
    await store.openAlerts([
      {
        id: 'old-duel',
        workspace: 'T1',
        channel: 'C1',
        env: 'prod',
        objectKey: 'Armada/duel',
        kind: 'Armada',
        name: 'duel',
        state: 'Degraded',
        firstBadAt: T0 - 10 * 60_000,
        openedAt: T0 - 9 * 60_000,
        drawn: 'none',
      },
    ]);
    await store.markAlertDrawn('old-duel', 'open', '1.0001');
    fraDown(api);
    api.setArmada('duel', 'Degraded', 'could not sync');
    await run(3 * 60_000);
    expect(messenger.posts.map((p) => p.objectKey)).toEqual(['Site/fra-02']);
    expect(messenger.updates.filter((u) => u.id === 'old-duel')).toEqual([]);
    api.setArmada('duel', 'Synced');
    await run(3 * 60_000);
    expect(messenger.updates.find((u) => u.id === 'old-duel')?.recoveredAt).toEqual(expect.any(Number));
  });

  it('names in a channel only the fleets behind the Site its policy lets it read', async () => {
    const opened = await openReplicaStores(kind, 1);
    close = opened.close;
    const clock = new ManualClock(T0);
    const api = new FakeApi();
    const messenger = new RecordingMessenger();
    const store = opened.stores[0] as Store;
    const mayRead = async (sub: { channel: string }, o: { name: string }) =>
      sub.channel === 'C1' || o.name !== 'secret';
    const watcher = watcherFor('r1', store, api, messenger, clock, { mayRead });
    for (const channel of ['C1', 'C2']) {
      await store.addWatch({ workspace: 'T1', channel, env: 'prod', createdBy: 'U1', createdAt: T0 });
    }
    fraDown(api);
    api.setArmada('duel', 'Degraded', 'could not sync');
    api.setArmada('secret', 'Degraded', 'could not sync');
    for (let t = 0; t < 2 * 60_000; t += 10_000) {
      await watcher.tick();
      clock.advance(10_000);
    }
    expect(messenger.postsIn('C1')[0]?.fleets?.map((f) => f.name)).toEqual(['duel', 'secret']);
    expect(messenger.postsIn('C2')[0]?.fleets?.map((f) => f.name)).toEqual(['duel']);
  });

  it('another replica takes over within the lease time when the poller dies, without a second alert', async () => {
    const { api, messenger, watchers, tick, clock, store } = await setup(3, ['C1']);
    await tick();
    const holder = (await store.getLease(pollerLease('prod')))?.owner;
    expect(holder).toBeDefined();
    api.setVessel('web-1', 'Error', 'boom');
    for (let i = 0; i < 9; i++) await tick();
    expect(messenger.posts).toHaveLength(1);
    // The holder dies without a word: it stops ticking and keeps its lease until it lapses.
    const alive = watchers.filter((_, i) => `r${i + 1}` !== holder);
    const diedAt = clock.now();
    const leaseMs = watchers[0]?.leaseMs ?? 0;
    let takenAt: number | undefined;
    for (let i = 0; i < 12 && takenAt === undefined; i++) {
      await tick(alive);
      const owner = (await store.getLease(pollerLease('prod')))?.owner;
      if (owner !== holder) takenAt = clock.now();
    }
    expect(takenAt).toBeDefined();
    expect((takenAt as number) - diedAt).toBeLessThanOrEqual(leaseMs + (watchers[0]?.tickMs ?? 0));
    api.setVessel('web-1', 'Running');
    for (let i = 0; i < 12; i++) await tick(alive);
    expect(messenger.posts).toHaveLength(1);
    expect(messenger.updates).toHaveLength(1);
  });

  it('unwatch stops alerts for that channel and the poller lets the environment go', async () => {
    const { api, messenger, run, store } = await setup(3, ['C1', 'C2']);
    expect(await store.removeWatch('T1', 'C2', 'prod')).toBe(true);
    expect(await store.removeWatch('T1', 'C2', 'prod')).toBe(false);
    api.setVessel('web-1', 'Error', 'boom');
    await run(2 * 60_000);
    expect(messenger.postsIn('C1')).toHaveLength(1);
    expect(messenger.postsIn('C2')).toHaveLength(0);
    await store.removeWatch('T1', 'C1', 'prod');
    const reads = api.reads;
    await run(5 * 60_000);
    expect(api.reads).toBe(reads);
    expect(await store.getLease(pollerLease('prod'))).toBeUndefined();
  });

  it('pauses polling on API errors and 429s, says why, and resumes', async () => {
    const { api, run, store, clock } = await setup(3, ['C1']);
    await run(INTERVAL);
    api.failure = new ApiError({
      status: 503,
      reason: 'ServiceUnavailable',
      message: 'GET /api/armada/v1/environments/prod/armadas: 503',
      apiMessage: 'try later',
      request: { method: 'GET', path: '/api/armada/v1/environments/prod/armadas' },
    });
    const failedAt = clock.now();
    await run(INTERVAL);
    const poller = await store.getPoller('prod');
    expect(poller).toMatchObject({ pausedStatus: 503, pausedAt: failedAt, failures: 1 });
    const reads = api.reads;
    await run(INTERVAL); // paused for two intervals: no reads
    expect(api.reads).toBe(reads);
    api.failure = new ApiError({
      status: 429,
      message: '429',
      apiMessage: 'slow down',
      request: { method: 'GET', path: '/x' },
      retryAfterMs: 120_000,
    });
    await run(2 * INTERVAL);
    expect(await store.getPoller('prod')).toMatchObject({ pausedStatus: 429, failures: 2 });
    api.failure = undefined;
    await run(3 * 60_000);
    const after = await store.getPoller('prod');
    expect(after?.failures).toBe(0);
    expect(after?.pausedStatus).toBeUndefined();
  });

  it('costs one list per kind per interval whatever the replicas, channels and objects', async () => {
    const channels = Array.from({ length: 50 }, (_, i) => `C${i}`);
    const { api, run, messenger } = await setup(3, channels);
    for (let i = 0; i < 40; i++) api.setVessel(`v-${i}`, i % 4 === 0 ? 'Error' : 'Running', 'boom');
    await run(10 * 60_000);
    // 20 intervals, 4 kinds each; no Degraded fleet, so no Site list.
    expect(api.reads).toBe(20 * 4);
    expect(messenger.posts).toHaveLength(10 * 50);
  });

  it('opens an object’s alerts in every channel with one store call per poll, whatever the channels', async () => {
    const channels = Array.from({ length: 50 }, (_, i) => `C${i}`);
    const { stores, api, messenger, clock } = await setup(1, channels);
    const counted = countingStore(stores[0] as Store);
    const watcher = watcherFor('rc', counted.store, api, messenger, clock);
    for (let i = 0; i < 3; i++) api.setVessel(`v-${i}`, 'Error', 'boom');
    for (let t = 0; t < 3 * 60_000; t += 10_000) {
      await watcher.tick();
      await clock.advance(10_000);
    }
    expect(messenger.posts).toHaveLength(3 * 50);
    // Polls at 0 s and 30 s find the trouble not yet settled; those at 60 s to 150 s open (or re-check) it.
    expect(api.reads).toBe(6 * 4);
    expect(counted.calls.get('openAlerts')).toBe(4 * 3);
  });

  it('alerts on a rollout Harbormaster follows that stopped moving, and recovers when it moves again', async () => {
    const { api, messenger, run, store, clock } = await setup(1, ['C1']);
    await store.createChange({
      id: 'chg-roll',
      operation: 'armada.image',
      request: {},
      preview: {
        preview: { summary: 'Roll out duel to game:2' },
        requirement: { mode: 'confirm', rule: 'r', expiresInMs: 60_000 },
        target: { environment: 'prod', armada: 'duel' },
      },
      requester: 'U1',
      origin: { workspace: 'T1', channel: 'C1' },
      status: 'succeeded',
      createdAt: clock.now(),
      updatedAt: clock.now(),
      expiresAt: clock.now() + 60_000,
    });
    const counts = (updated: number) => ({ replicas: 4, readyReplicas: 4, updatedReplicas: updated });
    api.setArmada('duel', 'Synced', undefined, counts(1));
    // An unfollowed fleet standing still mid-rollout is not Harbormaster's rollout.
    api.setArmada('other', 'Synced', undefined, counts(1));
    await run(4 * 60_000);
    api.setArmada('duel', 'Synced', undefined, counts(2)); // it moved: the stall clock restarts
    await run(4 * 60_000);
    expect(messenger.posts).toHaveLength(0);
    await run(3 * 60_000);
    expect(messenger.posts).toEqual([
      expect.objectContaining({
        kind: 'Armada',
        name: 'duel',
        state: 'Rollout stalled',
        reason: expect.stringMatching(/^2 of 4 servers updated; no progress for \d+ min$/),
      }),
    ]);
    api.setArmada('duel', 'Synced', undefined, counts(4));
    await run(2 * 60_000);
    expect(messenger.updates).toEqual([
      expect.objectContaining({ name: 'duel', recoveredAt: expect.any(Number) }),
    ]);
  });
});
