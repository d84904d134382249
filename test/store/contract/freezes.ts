/** Contract: freezes (issue 41), kept in the store so every replica sees the same ones. */
import { describe, expect, it } from '@jest/globals';
import type { FreezeRecord } from '../../../src/store/freeze-types.js';
import { type HarnessRef, MINUTE, T0 } from './harness.js';

const freeze = (id: string, overrides: Partial<FreezeRecord> = {}) => ({
  id,
  env: 'prod',
  createdBy: 'U1',
  createdAt: T0,
  workspace: 'T1',
  channel: 'C1',
  ...overrides,
});

/** Registers the freeze tests. */
export function freezesContract(h: HarnessRef): void {
  describe('freezes', () => {
    it('shows a freeze to another replica, until its until passes', async () => {
      expect(
        await h().store.addFreeze(freeze('f1', { until: T0 + 10 * MINUTE, reason: 'tournament' })),
      ).toEqual([]);
      await h().store.addFreeze(freeze('f2', { env: 'dev' }));
      const peer = await h().openPeer();
      expect(await peer.listFreezes({ now: T0 + MINUTE })).toEqual([
        freeze('f1', { until: T0 + 10 * MINUTE, reason: 'tournament' }),
        freeze('f2', { env: 'dev' }),
      ]);
      expect((await peer.listFreezes({ now: T0 + MINUTE, env: 'prod' })).map((f) => f.id)).toEqual(['f1']);
      // Expired by its own until, without a write; the open-ended one stays.
      expect((await peer.listFreezes({ now: T0 + 10 * MINUTE })).map((f) => f.id)).toEqual(['f2']);
    });

    it('ends the freezes in force on unfreeze, once, and a new freeze replaces the old', async () => {
      await h().store.addFreeze(freeze('f1'));
      const replaced = await h().store.addFreeze(freeze('f2', { createdBy: 'U2', createdAt: T0 + MINUTE }));
      expect(replaced.map((f) => [f.id, f.endedBy, f.endedAt])).toEqual([['f1', 'U2', T0 + MINUTE]]);
      expect((await h().store.listFreezes({ now: T0 + MINUTE })).map((f) => f.id)).toEqual(['f2']);
      const peer = await h().openPeer();
      const ended = await peer.endFreezes('prod', 'U3', T0 + 2 * MINUTE);
      expect(ended).toEqual([
        {
          ...freeze('f2', { createdBy: 'U2', createdAt: T0 + MINUTE }),
          endedAt: T0 + 2 * MINUTE,
          endedBy: 'U3',
        },
      ]);
      expect(await h().store.endFreezes('prod', 'U3', T0 + 2 * MINUTE)).toEqual([]);
      expect(await h().store.listFreezes({ now: T0 + 2 * MINUTE })).toEqual([]);
    });

    it('does not end a freeze that already expired', async () => {
      await h().store.addFreeze(freeze('f1', { until: T0 + MINUTE }));
      expect(await h().store.endFreezes('prod', 'U2', T0 + MINUTE)).toEqual([]);
    });
  });
}
