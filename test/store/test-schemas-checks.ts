/**
 * The test helper that reuses PostgreSQL schemas (test/support/postgres-schemas.ts):
 * a schema handed out again is as a fresh one, empty and fully migrated, with
 * the audit log's guard on and its ids from 1; one whose structure a test
 * changed is never handed out again. Registered by postgres-store.test.ts
 * (one file fewer to start).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { TestSchemas } from '../support/postgres-schemas.js';
import { newChange } from './contract/harness.js';

/** Registers the TestSchemas checks, on the test database at `databaseUrl`. */
export function testSchemasChecks(databaseUrl: string): void {
  describe('TestSchemas (the schemas the contract runs on)', () => {
    const schemas = new TestSchemas(databaseUrl, 'schemas_test');
    afterAll(() => schemas.end());

    /** Every table's row count (schema_migrations aside), as a fresh schema shows them. */
    async function rowCounts(schema: string): Promise<Record<string, number>> {
      const store = await openPostgresStore({ databaseUrl, schema });
      try {
        const tables = await store.pool.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'",
          [schema],
        );
        const counts: Record<string, number> = {};
        for (const { tablename } of tables.rows) {
          const result = await store.pool.query(`SELECT count(*)::int AS n FROM ${tablename}`);
          counts[tablename] = result.rows[0].n;
        }
        return counts;
      } finally {
        await store.close();
      }
    }

    it('hands a schema out again empty and migrated, the audit log guarded and numbered from 1', async () => {
      const first = await schemas.take();
      const fresh = await rowCounts(first);
      expect(Object.values(fresh).every((n) => n === 0)).toBe(true);
      const store = await openPostgresStore({ databaseUrl, schema: first });
      const migrations = (await store.pool.query('SELECT version, name FROM schema_migrations')).rows;
      await store.appendAudit({ at: 1, actor: 'U1', action: 'request' });
      await store.appendAudit({ at: 2, actor: 'U1', action: 'request' });
      await store.addWatch({ workspace: 'T1', channel: 'C1', env: 'prod', createdBy: 'U1', createdAt: 1 });
      await store.createChange(newChange({ id: 'c1' }));
      await store.close();
      await schemas.give(first);

      const again = await schemas.take();
      expect(again).toBe(first);
      expect(await rowCounts(again)).toEqual(fresh);
      const reopened = await openPostgresStore({ databaseUrl, schema: again });
      try {
        expect((await reopened.pool.query('SELECT version, name FROM schema_migrations')).rows).toEqual(
          migrations,
        );
        await reopened.appendAudit({ at: 3, actor: 'U2', action: 'request' });
        expect((await reopened.queryAudit({})).map((e) => e.id)).toEqual([1]);
        await expect(reopened.pool.query('DELETE FROM audit')).rejects.toThrow(/append-only/);
        await expect(reopened.pool.query('TRUNCATE audit')).rejects.toThrow(/append-only/);
      } finally {
        await reopened.close();
      }
      await schemas.give(again);
    });

    it('never hands out again a schema whose structure a test changed', async () => {
      const changed = await schemas.take();
      const store = await openPostgresStore({ databaseUrl, schema: changed });
      await store.pool.query('DROP TRIGGER audit_no_truncate ON audit');
      await store.close();
      await schemas.give(changed);

      const next = await schemas.take();
      expect(next).not.toBe(changed);
      const fresh = await openPostgresStore({ databaseUrl, schema: next });
      try {
        await expect(fresh.pool.query('TRUNCATE audit')).rejects.toThrow(/append-only/);
      } finally {
        await fresh.close();
      }
      await schemas.give(next);
    });
  });
}
