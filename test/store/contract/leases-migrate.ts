/** Contract: leases with expiry, and idempotent migrations. */

import { describe, expect, it } from '@jest/globals';
import { type HarnessRef, newChange, T0 } from './harness.js';

const TTL = 30_000;

/** Registers the lease and migration tests. */
export function leasesMigrateContract(h: HarnessRef): void {
  describe('leases', () => {
    it('acquires a free lease, refuses others before expiry, and lets the holder re-acquire', async () => {
      const store = h().store;
      expect(await store.getLease('tail:1')).toBeUndefined();
      expect(await store.acquireLease('tail:1', 'A', TTL, T0)).toBe(true);
      expect(await store.getLease('tail:1')).toStrictEqual({
        key: 'tail:1',
        owner: 'A',
        expiresAt: T0 + TTL,
      });
      expect(await store.acquireLease('tail:1', 'B', TTL, T0 + TTL - 1)).toBe(false);
      expect(await store.getLease('tail:1')).toStrictEqual({
        key: 'tail:1',
        owner: 'A',
        expiresAt: T0 + TTL,
      });
      expect(await store.acquireLease('tail:1', 'A', TTL, T0 + 10)).toBe(true);
      expect((await store.getLease('tail:1'))?.expiresAt).toBe(T0 + 10 + TTL);
    });

    it('renews only for the holder', async () => {
      const store = h().store;
      await store.acquireLease('k', 'A', TTL, T0);
      expect(await store.renewLease('k', 'A', TTL, T0 + 20_000)).toBe(true);
      expect((await store.getLease('k'))?.expiresAt).toBe(T0 + 20_000 + TTL);
      expect(await store.renewLease('k', 'B', TTL, T0 + 20_000)).toBe(false);
      expect(await store.renewLease('never-taken', 'A', TTL, T0)).toBe(false);
    });

    it('lets another owner take an expired lease, after which the old owner has lost it', async () => {
      const store = h().store;
      await store.acquireLease('k', 'A', TTL, T0);
      expect(await store.acquireLease('k', 'B', TTL, T0 + TTL)).toBe(true);
      expect(await store.getLease('k')).toStrictEqual({ key: 'k', owner: 'B', expiresAt: T0 + 2 * TTL });
      expect(await store.renewLease('k', 'A', TTL, T0 + TTL + 1)).toBe(false);
      expect(await store.acquireLease('k', 'A', TTL, T0 + TTL + 1)).toBe(false);
    });

    it('releases only for the holder', async () => {
      const store = h().store;
      await store.acquireLease('k', 'A', TTL, T0);
      await store.releaseLease('k', 'B');
      expect((await store.getLease('k'))?.owner).toBe('A');
      await store.releaseLease('k', 'A');
      expect(await store.getLease('k')).toBeUndefined();
      expect(await store.acquireLease('k', 'B', TTL, T0 + 1)).toBe(true);
    });

    it('gives a free lease to exactly one of many concurrent acquirers', async () => {
      const peer = await h().openPeer();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? peer : h().store).acquireLease('race', `owner-${i}`, TTL, T0),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect((await h().store.getLease('race'))?.owner).toBe(`owner-${winner}`);
    });
  });

  describe('migrate', () => {
    it('is a no-op the second time: same migrations recorded, data kept', async () => {
      const store = h().store;
      const change = newChange();
      await store.createChange(change);
      const before = await h().query('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(before.length).toBeGreaterThan(0);
      await store.migrate();
      await store.migrate();
      expect(await h().query('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual(before);
      expect(await store.getChange(change.id)).toStrictEqual({ ...change, version: 1 });
    });
  });
}
