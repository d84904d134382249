/** Contract: watches (issue 29), decided in the store for every replica. */
import { describe, expect, it } from '@jest/globals';
import type { WatchAlert } from '../../../src/store/watch-types.js';
import { type HarnessRef, MINUTE, T0 } from './harness.js';

const alert = (id: string, overrides: Partial<WatchAlert> = {}): WatchAlert => ({
  id,
  workspace: 'T1',
  channel: 'C1',
  env: 'prod',
  objectKey: 'Vessel/web-1',
  kind: 'Vessel',
  name: 'web-1',
  state: 'Error',
  reason: 'boom',
  firstBadAt: T0,
  openedAt: T0,
  drawn: 'none',
  ...overrides,
});

/** Registers the watch tests. */
export function watchesContract(h: HarnessRef): void {
  describe('watches', () => {
    it('subscribes a channel once per environment, lists and ends it', async () => {
      const sub = { workspace: 'T1', channel: 'C1', env: 'prod', createdBy: 'U1', createdAt: T0 };
      expect(await h().store.addWatch(sub)).toBe(true);
      expect(await h().store.addWatch({ ...sub, createdBy: 'U2' })).toBe(false);
      await h().store.addWatch({ ...sub, env: 'dev' });
      const peer = await h().openPeer();
      expect((await peer.listWatches({ channel: 'C1' })).map((w) => [w.env, w.createdBy])).toEqual([
        ['dev', 'U1'],
        ['prod', 'U1'],
      ]);
      expect(await peer.watchedEnvironments()).toEqual(['dev', 'prod']);
      expect(await peer.removeWatch('T1', 'C1', 'prod')).toBe(true);
      expect(await h().store.removeWatch('T1', 'C1', 'prod')).toBe(false);
      expect(await h().store.watchedEnvironments()).toEqual(['dev']);
    });

    it('grants one poll per gap whoever asks, none while paused, and keeps the pause', async () => {
      const peer = await h().openPeer();
      const claims = await Promise.all([
        h().store.claimPoll('prod', 30_000, T0),
        peer.claimPoll('prod', 30_000, T0),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await peer.claimPoll('prod', 30_000, T0 + 29_999)).toBe(false);
      expect(await peer.claimPoll('prod', 30_000, T0 + 30_000)).toBe(true);
      await peer.notePoll('prod', {
        status: 503,
        reason: 'ServiceUnavailable',
        at: T0 + 30_000,
        resumeAt: T0 + 2 * MINUTE,
      });
      expect(await h().store.getPoller('prod')).toEqual({
        env: 'prod',
        lastPollAt: T0 + 30_000,
        failures: 1,
        pausedStatus: 503,
        pausedAt: T0 + 30_000,
        resumeAt: T0 + 2 * MINUTE,
        pausedReason: 'ServiceUnavailable',
      });
      expect(await h().store.claimPoll('prod', 30_000, T0 + MINUTE + 59_999)).toBe(false);
      expect(await h().store.claimPoll('prod', 30_000, T0 + 2 * MINUTE)).toBe(true);
      await h().store.notePoll('prod', undefined);
      expect(await peer.getPoller('prod')).toEqual({ env: 'prod', lastPollAt: T0 + 2 * MINUTE, failures: 0 });
    });

    it('keeps trouble rows per environment and object', async () => {
      const t = {
        env: 'prod',
        objectKey: 'Vessel/web-1',
        kind: 'Vessel',
        name: 'web-1',
        state: 'Error',
        firstBadAt: T0,
        lastBadAt: T0,
      };
      await h().store.putTrouble(t);
      await h().store.putTrouble({
        ...t,
        lastBadAt: T0 + MINUTE,
        goodSince: T0 + 2 * MINUTE,
        reason: 'boom',
      });
      expect(await h().store.listTroubles('prod')).toEqual([
        { ...t, lastBadAt: T0 + MINUTE, goodSince: T0 + 2 * MINUTE, reason: 'boom' },
      ]);
      await h().store.deleteTrouble('prod', 'Vessel/web-1');
      expect(await h().store.listTroubles('prod')).toEqual([]);
    });

    it('opens one alert per object and channel, whichever replica asks, until it recovers', async () => {
      const peer = await h().openPeer();
      const opened = await Promise.all([h().store.openAlerts([alert('a1')]), peer.openAlerts([alert('a2')])]);
      expect(opened.flat()).toHaveLength(1);
      expect(await peer.openAlerts([alert('a3', { channel: 'C2' })])).toEqual([
        expect.objectContaining({ id: 'a3' }),
      ]);
      const open = await h().store.listAlerts({ env: 'prod', open: true });
      expect(open.map((a) => a.channel).sort()).toEqual(['C1', 'C2']);
      // The recovery goes to one caller only.
      const recovered = await Promise.all([
        h().store.recoverAlerts('prod', 'Vessel/web-1', 5 * MINUTE, T0 + 6 * MINUTE),
        peer.recoverAlerts('prod', 'Vessel/web-1', 5 * MINUTE, T0 + 6 * MINUTE),
      ]);
      expect(recovered.map((r) => r.length).sort()).toEqual([0, 2]);
      expect(await h().store.openAlerts([alert('a4')])).toEqual([
        expect.objectContaining({ id: 'a4', drawn: 'none' }),
      ]);
    });

    it('opens many alerts in one call, every field kept, leaving out those already open', async () => {
      const peer = await h().openPeer();
      const full = alert('a1', { region: 'eu', detail: 'Site eu-1 down', reason: 'Degraded' });
      const bare = alert('a2', { channel: 'C2' }); // no region, no detail
      expect(await h().store.openAlerts([full, bare])).toEqual(expect.arrayContaining([full, bare]));
      expect(await h().store.openAlerts([])).toEqual([]);
      // Two replicas at once, overlapping and in opposite orders: each alert opens once, none twice.
      const channels = Array.from({ length: 30 }, (_, i) => `C${i}`);
      const batch = (prefix: string) => channels.map((channel) => alert(`${prefix}-${channel}`, { channel }));
      const opened = await Promise.all([
        h().store.openAlerts(batch('x')),
        peer.openAlerts(batch('y').reverse()),
      ]);
      // C1 and C2 were open already.
      const rest = channels.filter((c) => c !== 'C1' && c !== 'C2');
      expect(
        opened
          .flat()
          .map((a) => a.channel)
          .sort(),
      ).toEqual(rest.sort());
      const open = await peer.listAlerts({ env: 'prod', open: true });
      expect(open).toHaveLength(30);
      expect(await h().store.getAlert('a1')).toEqual(full);
      expect(await h().store.getAlert('a2')).toEqual(bare);
    });

    it('lets one replica claim a post, another only once the claim is stale, and records the message', async () => {
      const peer = await h().openPeer();
      await h().store.openAlerts([alert('a1')]);
      expect(await h().store.claimAlertPost('a1', 'r1', MINUTE, T0)).toBe(true);
      expect(await peer.claimAlertPost('a1', 'r2', MINUTE, T0 + 30_000)).toBe(false);
      expect(await peer.claimAlertPost('a1', 'r2', MINUTE, T0 + MINUTE)).toBe(true);
      await peer.markAlertDrawn('a1', 'open', '1700000000.000100');
      expect(await h().store.claimAlertPost('a1', 'r1', MINUTE, T0 + 10 * MINUTE)).toBe(false);
      expect(await h().store.listAlerts({ undrawn: true })).toEqual([]);
      await h().store.recoverAlerts('prod', 'Vessel/web-1', MINUTE, T0 + 2 * MINUTE);
      expect((await h().store.listAlerts({ undrawn: true })).map((a) => a.id)).toEqual(['a1']);
      await h().store.markAlertDrawn('a1', 'recovered');
      expect(await h().store.getAlert('a1')).toMatchObject({
        messageTs: '1700000000.000100',
        drawn: 'recovered',
        recoveredAt: T0 + 2 * MINUTE,
        lastedMs: MINUTE,
      });
    });

    it("keeps the fleets of a cause's alert and revises an open one for its next edit, never a recovered one", async () => {
      const site = alert('a-site', {
        objectKey: 'Site/fra-02',
        kind: 'Site',
        name: 'fra-02',
        fleets: [
          { kind: 'Armada', name: 'duel', region: 'eu' },
          { kind: 'ArmadaSet', name: 'arena' },
        ],
      });
      await h().store.openAlerts([site]);
      const peer = await h().openPeer();
      expect((await peer.getAlert('a-site'))?.fleets).toEqual(site.fleets);
      expect((await peer.getAlert('a-site'))?.fleets?.[1]).not.toHaveProperty('region');
      await peer.markAlertDrawn('a-site', 'open', '1.0001');
      expect(await peer.listAlerts({ env: 'prod', undrawn: true })).toEqual([]);
      const fleets = [
        { kind: 'ArmadaSet' as const, name: 'arena' },
        { kind: 'Armada' as const, name: 'duel', region: 'eu', recovered: true },
      ];
      expect(await peer.reviseAlert('a-site', { state: 'Error', reason: 'gone', fleets })).toBe(true);
      const revised = await h().store.listAlerts({ env: 'prod', undrawn: true });
      expect(revised).toEqual([
        expect.objectContaining({ id: 'a-site', reason: 'gone', fleets, messageTs: '1.0001', drawn: 'none' }),
      ]);
      expect(revised[0]).not.toHaveProperty('detail');
      await h().store.recoverAlerts('prod', 'Site/fra-02', MINUTE, T0 + MINUTE);
      expect(await peer.reviseAlert('a-site', { state: 'Error', fleets: [] })).toBe(false);
      expect((await peer.getAlert('a-site'))?.fleets).toEqual(fleets);
      expect((await peer.getAlert('a-site')) ?? {}).toMatchObject({ recoveredAt: T0 + MINUTE });
      expect((await h().store.getAlert('a-site'))?.kind).toBe('Site');
    });

    it('mutes an object in a channel until a time', async () => {
      await h().store.openAlerts([alert('a1')]);
      expect(await h().store.muteAlert('a1', T0 + 60 * MINUTE, 'U1')).toMatchObject({
        mutedUntil: T0 + 60 * MINUTE,
        mutedBy: 'U1',
      });
      expect(await h().store.muteAlert('nope', T0, 'U1')).toBeUndefined();
      expect(await h().store.mutedChannels('prod', 'Vessel/web-1', T0)).toEqual(['T1:C1']);
      expect(await h().store.mutedChannels('prod', 'Vessel/web-1', T0 + 60 * MINUTE)).toEqual([]);
    });

    it('keeps since when a rollout stood still, restarts it when it moves, forgets finished ones', async () => {
      const first = await h().store.noteProgress(
        'prod',
        new Map([
          ['Armada/duel', '1/4'],
          ['Armada/x', '0/2'],
        ]),
        T0,
      );
      expect(first).toEqual(
        new Map([
          ['Armada/duel', T0],
          ['Armada/x', T0],
        ]),
      );
      const same = await h().store.noteProgress('prod', new Map([['Armada/duel', '1/4']]), T0 + MINUTE);
      expect(same).toEqual(new Map([['Armada/duel', T0]]));
      const moved = await h().store.noteProgress(
        'prod',
        new Map([
          ['Armada/duel', '2/4'],
          ['Armada/x', '0/2'],
        ]),
        T0 + 2 * MINUTE,
      );
      // x was forgotten when it was not under way: its clock starts again.
      expect(moved).toEqual(
        new Map([
          ['Armada/duel', T0 + 2 * MINUTE],
          ['Armada/x', T0 + 2 * MINUTE],
        ]),
      );
      expect(await h().store.noteProgress('prod', new Map(), T0 + 3 * MINUTE)).toEqual(new Map());
    });
  });
}
