/** Contract: release threads and log tails (versioned records with opaque JSON). */

import { describe, expect, it } from '@jest/globals';
import type { ReleaseRecord, TailRecord } from '../../../src/store/types.js';
import { type HarnessRef, nextId, T0 } from './harness.js';

function newRelease(overrides: Partial<Omit<ReleaseRecord, 'version'>> = {}): Omit<ReleaseRecord, 'version'> {
  return {
    id: nextId('rel'),
    workspace: 'T1',
    channel: 'C1',
    title: 'v1.4 rollout',
    status: 'open',
    createdBy: 'U1',
    createdAt: T0,
    data: { steps: [{ op: 'promote', done: false }], notes: null },
    ...overrides,
  };
}

function newTail(overrides: Partial<Omit<TailRecord, 'version'>> = {}): Omit<TailRecord, 'version'> {
  return {
    id: nextId('tail'),
    workspace: 'T1',
    channel: 'C1',
    env: 'dev',
    vessel: 'game-eu-1',
    startedBy: 'U1',
    startedAt: T0,
    status: 'active',
    state: { cursor: '2026-01-01T00:00:00Z', lines: ['a', 'b'] },
    ...overrides,
  };
}

/** Registers the release and tail tests. */
export function releasesTailsContract(h: HarnessRef): void {
  describe('releases', () => {
    it('creates, reads and finds releases by message and by open title', async () => {
      const store = h().store;
      const old = newRelease({ createdAt: T0, messageTs: '100.1' });
      const ended = newRelease({ createdAt: T0 + 5, status: 'ended', endedAt: T0 + 6 });
      const current = newRelease({ createdAt: T0 + 2, messageTs: '100.2' });
      for (const r of [old, ended, current])
        expect(await store.createRelease(r)).toStrictEqual({ ...r, version: 1 });
      expect(await store.getRelease(old.id)).toStrictEqual({ ...old, version: 1 });
      expect(await store.getRelease('missing')).toBeUndefined();
      expect((await store.findReleaseByMessage('C1', '100.2'))?.id).toBe(current.id);
      expect(await store.findReleaseByMessage('C2', '100.2')).toBeUndefined();
      // The ended one is newer but not open; of the open ones the newest wins.
      expect((await store.findOpenReleaseByTitle('T1', 'C1', 'v1.4 rollout'))?.id).toBe(current.id);
      expect(await store.findOpenReleaseByTitle('T1', 'C1', 'other')).toBeUndefined();
    });

    it('updates with and without expectVersion, clearing fields given as undefined', async () => {
      const store = h().store;
      const r = newRelease({ messageTs: '1.1' });
      await store.createRelease(r);
      const v2 = await store.updateRelease(
        r.id,
        { status: 'ended', endedAt: T0 + 9, data: { done: [1, 2] } },
        1,
      );
      expect(v2).toStrictEqual({
        ...r,
        status: 'ended',
        endedAt: T0 + 9,
        data: { done: [1, 2] },
        version: 2,
      });
      expect(await store.updateRelease(r.id, { status: 'open' }, 1)).toBeUndefined();
      const { messageTs: _gone, ...rest } = r;
      const v3 = await store.updateRelease(r.id, { messageTs: undefined, status: undefined });
      expect(v3).toStrictEqual({
        ...rest,
        status: 'ended',
        endedAt: T0 + 9,
        data: { done: [1, 2] },
        version: 3,
      });
      expect(await store.updateRelease('missing', { status: 'ended' })).toBeUndefined();
    });

    it('lists releases by status and workspace, oldest first', async () => {
      const store = h().store;
      const a = newRelease({ createdAt: T0 + 2 });
      const b = newRelease({ createdAt: T0 + 1, workspace: 'T2' });
      const c = newRelease({ createdAt: T0 + 3, status: 'ended' });
      for (const r of [a, b, c]) await store.createRelease(r);
      const ids = (list: ReleaseRecord[]) => list.map((r) => r.id);
      expect(ids(await store.listReleases({}))).toEqual([b.id, a.id, c.id]);
      expect(ids(await store.listReleases({ status: 'open' }))).toEqual([b.id, a.id]);
      expect(ids(await store.listReleases({ status: 'open', workspace: 'T1' }))).toEqual([a.id]);
    });
  });

  describe('tails', () => {
    it('creates, reads and updates a tail, honouring expectVersion', async () => {
      const store = h().store;
      const t = newTail({ container: 'server', releaseId: 'rel-1', threadTs: '5.5' });
      expect(await store.createTail(t)).toStrictEqual({ ...t, version: 1 });
      expect(await store.getTail(t.id)).toStrictEqual({ ...t, version: 1 });
      expect(await store.getTail('missing')).toBeUndefined();
      const v2 = await store.updateTail(t.id, { messageTs: '5.6', state: { cursor: 'c2', lines: [] } }, 1);
      expect(v2).toStrictEqual({ ...t, messageTs: '5.6', state: { cursor: 'c2', lines: [] }, version: 2 });
      expect(await store.updateTail(t.id, { status: 'stopped' }, 1)).toBeUndefined();
      const v3 = await store.updateTail(t.id, { status: 'stopped', stopReason: 'vessel gone' });
      expect(v3).toMatchObject({ status: 'stopped', stopReason: 'vessel gone', version: 3 });
      expect(await store.getTail(t.id)).toStrictEqual(v3);
    });

    it('lists tails by status, release and workspace, oldest first', async () => {
      const store = h().store;
      const a = newTail({ startedAt: T0 + 2, releaseId: 'R1' });
      const b = newTail({ startedAt: T0 + 1, workspace: 'T2' });
      const c = newTail({ startedAt: T0 + 3, status: 'stopped', releaseId: 'R1' });
      for (const t of [a, b, c]) await store.createTail(t);
      const ids = (list: TailRecord[]) => list.map((t) => t.id);
      expect(ids(await store.listTails({}))).toEqual([b.id, a.id, c.id]);
      expect(ids(await store.listTails({ status: 'active' }))).toEqual([b.id, a.id]);
      expect(ids(await store.listTails({ releaseId: 'R1' }))).toEqual([a.id, c.id]);
      expect(ids(await store.listTails({ workspace: 'T2', status: 'active' }))).toEqual([b.id]);
    });
  });
}
