/** Contract: guards (issue 42): one replica holds a guard at a time, a lapsed lease is taken over, moves are conditional. */
import { describe, expect, it } from '@jest/globals';
import { type HarnessRef, MINUTE, T0 } from './harness.js';

const guard = (changeId: string) => ({
  changeId,
  rule: 'prod-images',
  withinMs: 15 * MINUTE,
  windowEnd: T0 + 15 * MINUTE,
  createdAt: T0,
});

/** Registers the guard tests. */
export function guardsContract(h: HarnessRef): void {
  describe('guards', () => {
    it('stores a guard once and lists it open until it ends', async () => {
      await h().store.createGuard(guard('g1'));
      await h().store.createGuard({ ...guard('g1'), rule: 'other' });
      const peer = await h().openPeer();
      expect(await peer.listOpenGuards(10)).toEqual([{ ...guard('g1'), state: 'watching' }]);
      expect(await peer.leaseGuard('g1', 'r1', MINUTE, T0)).toMatchObject({
        owner: 'r1',
        leaseUntil: T0 + MINUTE,
      });
      const ended = await peer.moveGuard(
        'g1',
        'r1',
        ['watching'],
        { state: 'passed', endedAt: T0 + 15 * MINUTE },
        T0 + 1,
      );
      expect(ended).toMatchObject({ state: 'passed', endedAt: T0 + 15 * MINUTE });
      expect(await h().store.listOpenGuards(10)).toEqual([]);
      // An ended guard is nobody's to lease again.
      expect(await h().store.leaseGuard('g1', 'r2', MINUTE, T0 + 20 * MINUTE)).toBeUndefined();
    });

    it('lets one replica hold a guard until its lease lapses, then another', async () => {
      await h().store.createGuard(guard('g2'));
      const peer = await h().openPeer();
      const [a, b] = await Promise.all([
        h().store.leaseGuard('g2', 'r1', MINUTE, T0),
        peer.leaseGuard('g2', 'r2', MINUTE, T0),
      ]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      const holder = a ? 'r1' : 'r2';
      const other = a ? 'r2' : 'r1';
      expect(await peer.leaseGuard('g2', other, MINUTE, T0 + MINUTE - 1)).toBeUndefined();
      expect(
        await peer.noteGuardTrouble(
          'g2',
          holder,
          { trouble: { 'Armada/duel': T0 }, touched: ['dev|Armada|duel'] },
          T0 + 1,
        ),
      ).toBe(true);
      expect(await peer.noteGuardTrouble('g2', other, { trouble: {}, touched: [] }, T0 + 1)).toBe(false);
      // The holder stops renewing: past its lease, another takes over and keeps the trouble seen.
      expect(await peer.leaseGuard('g2', other, MINUTE, T0 + MINUTE)).toMatchObject({
        owner: other,
        trouble: { 'Armada/duel': T0 },
        touched: ['dev|Armada|duel'],
      });
      // The old holder can no longer move it.
      expect(
        await h().store.moveGuard('g2', holder, ['watching'], { state: 'rolling_back' }, T0 + MINUTE),
      ).toBeUndefined();
      expect(
        await h().store.moveGuard(
          'g2',
          other,
          ['watching'],
          { state: 'rolling_back', trigger: 'seen', rollbackId: 'rb' },
          T0 + MINUTE,
        ),
      ).toMatchObject({ state: 'rolling_back', trigger: 'seen', rollbackId: 'rb' });
      expect((await peer.getGuard('g2'))?.state).toBe('rolling_back');
      expect(await peer.listOpenGuards(10)).toHaveLength(1);
      expect(await peer.listRolledBackGuards(T0, 10)).toEqual([]);
      await h().store.moveGuard(
        'g2',
        other,
        ['rolling_back'],
        { state: 'rolled_back', endedAt: T0 + 2 * MINUTE },
        T0 + MINUTE,
      );
      expect((await peer.listRolledBackGuards(T0 + 2 * MINUTE, 10)).map((g) => g.changeId)).toEqual(['g2']);
      expect(await peer.listRolledBackGuards(T0 + 3 * MINUTE, 10)).toEqual([]);
      // Rolled back: no longer open.
      expect(await peer.listOpenGuards(10)).toEqual([]);
    });
  });
}
