/** Contract: Slack's rate limits shared by every replica on the store (issue 22.1). */
import { describe, expect, it } from '@jest/globals';
import type { SlotRule } from '../../../src/store/types.js';
import { type HarnessRef, T0 } from './harness.js';

const RULE: SlotRule = { key: 'T1:chat.update', intervalMs: 1000, toleranceMs: 2000 };

/** Registers the shared Slack budget tests. */
export function slackBudgetContract(h: HarnessRef): void {
  describe('the shared Slack budget', () => {
    it('hands out a burst, then one slot per interval, across replicas', async () => {
      const peer = await h().openPeer();
      const stores = [h().store, peer];
      const taken = await Promise.all(Array.from({ length: 6 }, (_, i) => stores[i % 2]?.takeSlot(RULE, T0)));
      // Three back to back (tolerance two intervals), whoever asks.
      expect(taken.filter((a) => a?.taken).length).toBe(3);
      expect(await peer.takeSlot(RULE, T0 + 999)).toEqual({ taken: false, openAt: T0 + 1000 });
      expect(await peer.takeSlot(RULE, T0 + 1000)).toEqual({ taken: true });
      expect((await h().store.takeSlot(RULE, T0 + 1000)).taken).toBe(false);
    });

    it('lets a caller with a deeper tolerance (a person) go first', async () => {
      for (let i = 0; i < 3; i++) expect((await h().store.takeSlot(RULE, T0)).taken).toBe(true);
      const person = { ...RULE, toleranceMs: 4000 };
      expect(await h().store.takeSlot(person, T0)).toEqual({ taken: true });
      expect(await h().store.takeSlot(person, T0)).toEqual({ taken: true });
      expect(await h().store.takeSlot(person, T0)).toEqual({ taken: false, openAt: T0 + 1000 });
      expect(await h().store.takeSlot(RULE, T0)).toEqual({ taken: false, openAt: T0 + 3000 });
    });

    it('holds a gate for every replica (a 429) and gives back an unused slot', async () => {
      const peer = await h().openPeer();
      await h().store.holdSlots(RULE.key, T0 + 20_000 + RULE.toleranceMs);
      expect(await peer.takeSlot(RULE, T0 + 19_999)).toEqual({ taken: false, openAt: T0 + 20_000 });
      // An earlier hold never shortens a later one.
      await peer.holdSlots(RULE.key, T0 + 5000);
      expect(await peer.takeSlot(RULE, T0 + 20_000)).toEqual({ taken: true });
      await h().store.returnSlot(RULE.key, RULE.intervalMs);
      expect(await peer.takeSlot(RULE, T0 + 20_000)).toEqual({ taken: true });
    });

    it('sums the demand of live replicas only', async () => {
      const peer = await h().openPeer();
      expect(await h().store.reportDemand('T1:chat.update', 'a', 8, 6000, T0)).toEqual({
        consumers: 8,
        replicas: 1,
      });
      expect(await peer.reportDemand('T1:chat.update', 'b', 4, 6000, T0 + 1000)).toEqual({
        consumers: 12,
        replicas: 2,
      });
      expect(await peer.reportDemand('T1:chat.update', 'b', 3, 6000, T0 + 6000)).toEqual({
        consumers: 3,
        replicas: 1,
      });
      expect(await peer.reportDemand('T2:chat.update', 'b', 1, 6000, T0 + 6000)).toEqual({
        consumers: 1,
        replicas: 1,
      });
    });
  });
}
