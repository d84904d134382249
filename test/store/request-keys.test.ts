/**
 * Request keys (replay protection, issue 9 defect 14) in both stores: a key
 * is new once, is known to every replica while remembered, and is forgotten
 * when its window has passed. Times are explicit, as from a ManualClock.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { commandKey, TEXT_KEY_TTL_MS, TRIGGER_KEY_TTL_MS } from '../../src/slack/runtime/command-replay.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { slashCommandFields } from '../../src/workspace/signing.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const url = process.env.HARBOR_TEST_DATABASE_URL;
if (!url) console.warn('PostgreSQL request-key tests skipped: set HARBOR_TEST_DATABASE_URL');

type Pair = { store: Store; peer: Store; cleanup(): Promise<void> };

async function sqlitePair(): Promise<Pair> {
  const dir = await mkdtemp(join(tmpdir(), 'harbor-keys-'));
  const store = await openSqliteStore({ dataDir: dir });
  const peer = await openSqliteStore({ dataDir: dir });
  return {
    store,
    peer,
    cleanup: async () => {
      await store.close();
      await peer.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let schemas = 0;
async function postgresPair(): Promise<Pair> {
  schemas += 1;
  const schema = `keys_test_${process.pid}_${Date.now().toString(36)}_${schemas}`;
  const store = await openPostgresStore({ databaseUrl: url as string, schema });
  const peer = await openPostgresStore({ databaseUrl: url as string, schema });
  return {
    store,
    peer,
    cleanup: async () => {
      await store.close();
      await peer.close();
      const admin = new pg.Pool({ connectionString: url, max: 1 });
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const kinds: [string, () => Promise<Pair>][] = [['SQLite', sqlitePair]];
if (url) kinds.push(['PostgreSQL', postgresPair]);

describe.each(kinds)('%s rememberRequest', (_name, open) => {
  let pair: Pair | undefined;
  afterEach(async () => {
    await pair?.cleanup();
    pair = undefined;
  });

  it('is new once, known to a second replica, and new again after its window', async () => {
    pair = await open();
    const { store, peer } = pair;
    expect(await store.rememberRequest('command:T1:trig-1', 1_000, T0)).toBe(true);
    expect(await store.rememberRequest('command:T1:trig-1', 1_000, T0 + 1)).toBe(false);
    expect(await peer.rememberRequest('command:T1:trig-1', 1_000, T0 + 999)).toBe(false);
    expect(await peer.rememberRequest('command:T1:trig-2', 1_000, T0 + 999)).toBe(true);
    expect(await store.rememberRequest('command:T1:trig-1', 1_000, T0 + 1_000)).toBe(true);
  });

  it('does not collide with leases of the same name', async () => {
    pair = await open();
    expect(await pair.store.acquireLease('command:T1:x', 'owner', 1_000, T0)).toBe(true);
    expect(await pair.store.rememberRequest('command:T1:x', 1_000, T0)).toBe(true);
  });
});

describe('commandKey', () => {
  it('keys by trigger id for ten minutes (past Bolt’s five-minute signature window)', () => {
    const key = commandKey(slashCommandFields({ trigger_id: '123.456.abc', team_id: 'T1' }));
    expect(key).toEqual({ key: 'command:T1:123.456.abc', ttlMs: TRIGGER_KEY_TTL_MS });
    expect(TRIGGER_KEY_TTL_MS).toBeGreaterThan(5 * 60_000);
  });

  it('without a trigger id, keys by team, user, channel and text for a short window', () => {
    const a = commandKey(slashCommandFields({ trigger_id: '', text: 'promote x' }));
    const b = commandKey(slashCommandFields({ trigger_id: '', text: 'promote y' }));
    expect(a.ttlMs).toBe(TEXT_KEY_TTL_MS);
    expect(a.key).not.toBe(b.key);
    expect(commandKey(slashCommandFields({ trigger_id: '', text: 'promote x' }))).toEqual(a);
  });
});
