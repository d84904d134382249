/** Contract: the views the bot opened (issue 22.4), shared by every replica on the store. */
import { describe, expect, it } from '@jest/globals';
import { type HarnessRef, MINUTE, T0 } from './harness.js';

/** Registers the opened-view tests. */
export function viewsContract(h: HarnessRef): void {
  describe('opened views', () => {
    it('knows a view the bot opened, on every replica, until it expires; not one it never opened', async () => {
      const peer = await h().openPeer();
      await h().store.rememberView('V1', 'hash-1', 60 * MINUTE, T0);
      expect(await peer.openedViewHash('V1', T0 + MINUTE)).toBe('hash-1');
      expect(await peer.openedViewHash('V2', T0 + MINUTE)).toBeUndefined();
      expect(await h().store.openedViewHash('V1', T0 + 60 * MINUTE)).toBeUndefined();
    });

    it('keeps the latest hash and extends the expiry when the view is updated', async () => {
      await h().store.rememberView('V1', 'hash-1', 10 * MINUTE, T0);
      await h().store.rememberView('V1', 'hash-2', 10 * MINUTE, T0 + 5 * MINUTE);
      const peer = await h().openPeer();
      expect(await peer.openedViewHash('V1', T0 + 12 * MINUTE)).toBe('hash-2');
    });
  });
}
