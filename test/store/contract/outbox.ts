/** Contract: the outbox (issue 39): rows commit with the change they tell of, in order, claimed once, pruned. */

import { describe, expect, it } from '@jest/globals';
import { type HarnessRef, newChange, T0 } from './harness.js';

const entry = (payload: unknown, toldHere = false) => ({
  topic: 'change',
  at: T0,
  publisher: 'replica-a',
  toldHere,
  payload,
});

/** Registers the outbox tests. */
export function outboxContract(h: HarnessRef): void {
  describe('outbox', () => {
    it('commits a change and the event telling of it together, and neither when the transaction fails', async () => {
      const start = await h().store.lastOutboxSeq();
      await h().store.createChange(newChange({ id: 'told' }));
      await h().store.atomically(async (tx) => {
        const moved = await tx.transitionChange('told', ['pending'], 'cancelled', {}, { now: T0 + 1 });
        await tx.appendOutbox(entry({ kind: 'closed', id: moved?.id, status: moved?.status }));
      });
      await h().store.createChange(newChange({ id: 'untold' }));
      await expect(
        h().store.atomically(async (tx) => {
          await tx.transitionChange('untold', ['pending'], 'cancelled', {}, { now: T0 + 1 });
          await tx.appendOutbox(entry({ kind: 'closed', id: 'untold' }));
          throw new Error('the write after the event failed');
        }),
      ).rejects.toThrow();
      expect((await h().store.getChange('told'))?.status).toBe('cancelled');
      expect((await h().store.getChange('untold'))?.status).toBe('pending');
      const rows = await h().store.readOutbox(start, 10);
      expect(rows.map((r) => r.payload)).toEqual([{ kind: 'closed', id: 'told', status: 'cancelled' }]);
      expect(rows[0]).toMatchObject({ topic: 'change', at: T0, publisher: 'replica-a', toldHere: false });
    });

    it('reads rows in order after a cursor, a replica on the same database too, and claims each once', async () => {
      const start = await h().store.lastOutboxSeq();
      const seqs = [];
      for (const n of [1, 2, 3]) seqs.push(await h().store.appendOutbox(entry({ n }, n === 2)));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(await h().store.lastOutboxSeq()).toBe(seqs[2]);
      const peer = await h().openPeer();
      expect((await peer.readOutbox(start, 10)).map((r) => [r.payload, r.toldHere])).toEqual([
        [{ n: 1 }, false],
        [{ n: 2 }, true],
        [{ n: 3 }, false],
      ]);
      expect((await peer.readOutbox(seqs[0] as number, 1)).map((r) => r.payload)).toEqual([{ n: 2 }]);
      const claims = await Promise.all([
        h().store.claimOutbox('surface', seqs[0] as number, 60_000, T0),
        peer.claimOutbox('surface', seqs[0] as number, 60_000, T0),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      // Another kind of subscriber claims it for itself.
      expect(await peer.claimOutbox('other', seqs[0] as number, 60_000, T0)).toBe(true);
    });

    it('prunes rows written before a time and claims lapsed by now', async () => {
      const start = await h().store.lastOutboxSeq();
      const old = await h().store.appendOutbox({ ...entry({ old: true }), at: T0 - 10 });
      await h().store.appendOutbox(entry({ old: false }));
      await h().store.claimOutbox('surface', old, 5, T0 - 10);
      expect(await h().store.pruneOutbox(T0, T0)).toBe(1);
      expect((await h().store.readOutbox(start, 10)).map((r) => r.payload)).toEqual([{ old: false }]);
      // The lapsed claim is gone with it: a row with that seq could be claimed again (none will exist).
      expect(await h().store.claimOutbox('surface', old, 5, T0)).toBe(true);
    });
  });
}
