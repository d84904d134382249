import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { toStoreError } from '../../src/store/errors.js';
import { openStore } from '../../src/store/index.js';
import { SQLITE_FILE_NAME } from '../../src/store/sqlite-migrate.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { runStoreContract, type StoreHarness } from './store-contract.js';

/** A store on a file in a fresh temp directory, so peers can open the same database. */
async function sqliteHarness(): Promise<StoreHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-store-'));
  const store = await openSqliteStore({ dataDir: dir });
  const opened: SqliteStore[] = [store];
  return {
    store,
    openPeer: async () => {
      const peer = await openSqliteStore({ dataDir: dir });
      opened.push(peer);
      return peer;
    },
    exec: async (sql) => {
      try {
        store.db.exec(sql);
      } catch (err) {
        throw toStoreError(err);
      }
    },
    query: async (sql) => store.db.prepare(sql).all() as Record<string, unknown>[],
    cleanup: async () => {
      for (const s of opened) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('SqliteStore contract', () => {
  runStoreContract(sqliteHarness);
});

describe('SqliteStore specifics', () => {
  const dirs: string[] = [];
  const toClose: Store[] = [];
  afterEach(async () => {
    for (const s of toClose.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('openStore without a database URL uses SQLite, creating the data directory, in WAL mode', async () => {
    const root = mkdtempSync(join(tmpdir(), 'harbor-store-'));
    dirs.push(root);
    const dataDir = join(root, 'nested', 'data');
    const logger = createMemoryLogger();
    const store = await openStore({ dataDir, logger });
    toClose.push(store);
    expect(store.kind).toBe('sqlite');
    expect(existsSync(join(dataDir, SQLITE_FILE_NAME))).toBe(true);
    expect((store as SqliteStore).db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(logger.lines.some((l) => l.includes('sqlite store migrated'))).toBe(true);
  });

  it('forgets expired request keys, views and Home viewers through an index, not a scan of every lease', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-store-'));
    dirs.push(dir);
    const store = (await openStore({ dataDir: dir })) as SqliteStore;
    toClose.push(store);
    // The forgetting runs on every command, click and modal: its plan must not grow with the table.
    for (const prefix of ['request:%', 'view:%', 'home:%']) {
      const plan = store.db
        .prepare(`EXPLAIN QUERY PLAN DELETE FROM leases WHERE key LIKE '${prefix}' AND expires_at <= ?`)
        .all(1) as { detail: string }[];
      expect(plan.map((p) => p.detail).join('; ')).toMatch(
        /SEARCH leases USING (COVERING )?INDEX leases_expires_at/,
      );
    }
  });

  it('keeps data across a restart of the process (close and reopen)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-store-'));
    dirs.push(dir);
    const first = await openStore({ dataDir: dir });
    await first.appendAudit({ at: 1, actor: 'U1', action: 'request' });
    await first.acquireLease('k', 'A', 1000, 1);
    await first.close();
    const logger = createMemoryLogger();
    const second = await openStore({ dataDir: dir, logger });
    toClose.push(second);
    expect(await second.queryAudit({})).toEqual([{ id: 1, at: 1, actor: 'U1', action: 'request' }]);
    expect(await second.getLease('k')).toEqual({ key: 'k', owner: 'A', expiresAt: 1001 });
    // Nothing left to migrate on the second start.
    expect(logger.lines).toEqual([]);
  });

  it("supports dataDir ':memory:' for tests", async () => {
    const store = await openStore({ dataDir: ':memory:' });
    toClose.push(store);
    expect(store.kind).toBe('sqlite');
    await store.createChange({
      id: 'm1',
      operation: 'op',
      request: {},
      preview: null,
      requester: 'U',
      origin: { workspace: 'T', channel: 'C' },
      status: 'pending',
      createdAt: 1,
      updatedAt: 1,
      expiresAt: 2,
    });
    expect((await store.getChange('m1'))?.preview).toBeNull();
  });

  it('refuses a JSON column holding text that is not JSON as a StoreError naming the column', async () => {
    const store = (await openStore({ dataDir: ':memory:' })) as SqliteStore;
    toClose.push(store);
    await store.createTail({
      id: 't1',
      workspace: 'T',
      channel: 'C',
      env: 'dev',
      vessel: 'v',
      startedBy: 'U',
      startedAt: 1,
      status: 'active',
      state: { lines: 3 },
    });
    store.db.exec(`UPDATE tails SET state = '{"lines": 3' WHERE id = 't1'`);
    await expect(store.getTail('t1')).rejects.toMatchObject({
      name: 'StoreError',
      code: 'HARBOR_BAD_ROW',
      message: expect.stringMatching(/^a tails row does not hold what it should: state: not JSON text/),
    });
  });

  it('close() twice is harmless', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
  });
});
