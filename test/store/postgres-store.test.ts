import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { openStore } from '../../src/store/index.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/migrations/migration.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres-store.js';
import type { Store } from '../../src/store/types.js';
import { TestSchemas } from '../support/postgres-schemas.js';
import { spawnClaimWorker } from './fixtures/spawn-claim-worker.js';
import { runStoreContract, type StoreHarness } from './store-contract.js';
import { testSchemasChecks } from './test-schemas-checks.js';

const url = process.env.HARBOR_TEST_DATABASE_URL;
if (!url) {
  console.warn(
    'PostgreSQL store tests skipped: set HARBOR_TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test',
  );
}
const describePg = url ? describe : describe.skip;

// One prefix per test file run; each test that must migrate a new schema gets its own, all dropped afterwards.
const prefix = `store_test_${process.pid}_${Date.now().toString(36)}`;
let schemaCount = 0;
function freshSchema(): string {
  schemaCount += 1;
  return `${prefix}_${schemaCount}`;
}

describePg('PostgresStore', () => {
  const databaseUrl = url as string;
  let admin: pg.Pool;
  let contractSchemas: TestSchemas;
  const schemas: string[] = [];

  beforeAll(() => {
    admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    contractSchemas = new TestSchemas(databaseUrl, 'store_test');
  });

  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
    await contractSchemas.end();
  });

  /** A store on an empty, migrated schema of its own; peers are further pools on the same schema. */
  async function pgHarness(): Promise<StoreHarness> {
    const schema = await contractSchemas.take();
    const store = await openPostgresStore({ databaseUrl, schema });
    const opened: PostgresStore[] = [store];
    return {
      store,
      openPeer: async () => {
        const peer = await openPostgresStore({ databaseUrl, schema });
        opened.push(peer);
        return peer;
      },
      exec: async (sql) => {
        await store.pool.query(sql);
      },
      query: async (sql) => (await store.pool.query(sql)).rows,
      cleanup: async () => {
        for (const s of opened) await s.close();
        await contractSchemas.give(schema);
      },
    };
  }

  testSchemasChecks(databaseUrl);

  describe('contract', () => {
    runStoreContract(pgHarness);
  });

  describe('specifics', () => {
    const toClose: Store[] = [];
    afterEach(async () => {
      for (const s of toClose.splice(0)) await s.close();
    });

    it('two openStore() calls migrating a fresh schema at once both succeed, migrating once', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const stores = await Promise.all([
        openStore({ databaseUrl, schema }),
        openStore({ databaseUrl, schema }),
        openStore({ databaseUrl, schema }),
      ]);
      toClose.push(...stores);
      for (const s of stores) expect(s.kind).toBe('postgres');
      const applied = await admin.query(`SELECT version FROM ${schema}.schema_migrations`);
      expect(applied.rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
      const indexes = await admin.query(
        'SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2',
        [schema, 'leases'],
      );
      expect(indexes.rows.map((r) => r.indexname)).toContain('leases_expires_at');
      // All of them work against the same tables.
      const [a, b] = stores;
      await a.appendAudit({ at: 1, actor: 'U1', action: 'request' });
      expect(await b.queryAudit({})).toMatchObject([{ actor: 'U1' }]);
    });

    it('a replica whose migration waits longer than its query timeout still starts', async () => {
      // The query timeout bounds a click's wait on the database; a migration (another replica
      // migrating first, a long CREATE INDEX, a loaded server) may rightly take longer.
      const schema = freshSchema();
      schemas.push(schema);
      const timeoutMs = 200;
      const holder = await admin.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1)', [0x48424d53]);
        const opening = openStore({ databaseUrl, schema, timeoutMs });
        const outcome = opening.then(
          () => 'opened',
          (err: Error) => `failed: ${err.message}`,
        );
        // Released only once the migrator has waited on the lock for well over its timeout.
        for (;;) {
          const waited = await admin.query(
            `SELECT 1 FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'
                AND now() - query_start > make_interval(secs => $1)`,
            [(4 * timeoutMs) / 1000],
          );
          if (waited.rowCount || (await Promise.race([outcome, 'waiting'])) !== 'waiting') break;
        }
        await holder.query('COMMIT');
        expect(await outcome).toBe('opened');
        toClose.push(await opening);
      } finally {
        holder.release();
      }
      const applied = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.schema_migrations`);
      expect(applied.rows[0].n).toBe(POSTGRES_MIGRATIONS.length);
    });
    it('keeps the tables in the configured schema', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const store = await openStore({ databaseUrl, schema });
      toClose.push(store);
      const tables = await admin.query(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [schema],
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'approvals',
        'audit',
        'changes',
        'freezes',
        'guards',
        'leases',
        'releases',
        'schema_migrations',
        'slack_budget',
        'slack_budget_demand',
        'tails',
        'watch_alerts',
        'watch_pollers',
        'watch_progress',
        'watch_subscriptions',
        'watch_troubles',
      ]);
    });

    it('refuses TRUNCATE of the audit log', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const store = (await openStore({ databaseUrl, schema })) as PostgresStore;
      toClose.push(store);
      await store.appendAudit({ at: 1, actor: 'U1', action: 'request' });
      await expect(store.pool.query('TRUNCATE audit')).rejects.toThrow(/append-only/);
      expect(await store.queryAudit({})).toHaveLength(1);
    });

    it('lets exactly one claim win when two OS processes race on the same change', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const store = await openStore({ databaseUrl, schema });
      toClose.push(store);
      await store.createChange({
        id: 'race',
        operation: 'promote-image',
        request: {},
        preview: {},
        requester: 'U1',
        origin: { workspace: 'T1', channel: 'C1' },
        status: 'pending',
        createdAt: 1,
        updatedAt: 1,
        expiresAt: 2,
      });
      const workers = ['proc-a', 'proc-b'].map((name) =>
        spawnClaimWorker({ databaseUrl, schema, changeId: 'race', claims: 20, name }),
      );
      await Promise.all(workers.map((w) => w.ready));
      for (const w of workers) w.go();
      const results = await Promise.all(workers.map((w) => w.result));
      expect(results.reduce((sum, r) => sum + r.wins, 0)).toBe(1);
      expect(await store.getChange('race')).toMatchObject({ status: 'applying', version: 2 });
    });

    it('rejects a schema name that is not a plain identifier', async () => {
      await expect(openStore({ databaseUrl, schema: 'bad-name; drop' })).rejects.toThrow(
        /invalid PostgreSQL schema/,
      );
    });
  });
});
