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

/** Registers the tests of who has a Home tab open (issue 19.1, over replicas). */
export function homeViewersContract(h: HarnessRef): void {
  describe('open Home tabs', () => {
    it('knows who opened their Home tab, per workspace, on every replica, until their window ends', async () => {
      const peer = await h().openPeer();
      await h().store.noteHomeOpened('T1', 'U2', 30 * MINUTE, T0);
      await h().store.noteHomeOpened('T1', 'U1', 30 * MINUTE, T0 + MINUTE);
      await h().store.noteHomeOpened('T2', 'U3', 30 * MINUTE, T0);
      expect(await peer.homeViewers('T1', T0 + 2 * MINUTE)).toEqual(['U1', 'U2']);
      expect(await peer.homeViewers('T2', T0 + 2 * MINUTE)).toEqual(['U3']);
      expect(await peer.homeViewers('T1', T0 + 30 * MINUTE)).toEqual(['U1']);
    });

    it('extends the window when the tab is opened again', async () => {
      await h().store.noteHomeOpened('T1', 'U1', 30 * MINUTE, T0);
      await h().store.noteHomeOpened('T1', 'U1', 30 * MINUTE, T0 + 20 * MINUTE);
      expect(await h().store.homeViewers('T1', T0 + 40 * MINUTE)).toEqual(['U1']);
    });
  });
}
