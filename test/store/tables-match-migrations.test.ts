/**
 * The migrations are history, written out per dialect; the columns are
 * declared once, in src/store/tables.ts. After migrating, each database must
 * hold exactly the declared tables and columns, each of the declared kind and
 * nullability, so the declaration the code is typed by is the schema the
 * data lives in (issue 17, point 6).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { silentLogger } from '../../src/runtime/logger.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { migrateSqlite, openSqliteDatabase } from '../../src/store/sqlite-migrate.js';
import { type ColumnDecl, TABLES } from '../../src/store/tables.js';

interface LiveColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  primaryKey: boolean;
}

/** The types a declared kind is stored as, per dialect. */
const STORED_AS: Record<'sqlite' | 'postgres', Record<ColumnDecl['kind'], string>> = {
  sqlite: { text: 'TEXT', int: 'INTEGER', json: 'TEXT' },
  postgres: { text: 'text', int: 'bigint', json: 'jsonb' },
};

/** Tables the stores keep for themselves (migration bookkeeping, idempotency keys), not records. */
const INTERNAL = new Set(['schema_migrations', 'request_keys', 'sqlite_sequence']);

/** The live schema as the declaration would describe it, for comparison. */
function expected(dialect: 'sqlite' | 'postgres'): Omit<LiveColumn, 'primaryKey'>[] {
  return Object.entries(TABLES).flatMap(([table, columns]) =>
    Object.entries(columns as Record<string, ColumnDecl>).map(([column, decl]) => ({
      table,
      column,
      type: STORED_AS[dialect][decl.kind],
      nullable: decl.nullable,
    })),
  );
}

/** Primary-key columns are NOT NULL whatever SQLite's table_info says; ids the database assigns read as required. */
function comparable(live: LiveColumn[]): Omit<LiveColumn, 'primaryKey'>[] {
  return live
    .filter((c) => !INTERNAL.has(c.table))
    .map(({ primaryKey, ...c }) => ({ ...c, nullable: primaryKey ? false : c.nullable }));
}

const byName = (a: { table: string; column: string }, b: { table: string; column: string }) =>
  `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`);

describe('the declared tables', () => {
  it('are what the SQLite migrations create, column by column', () => {
    const db = openSqliteDatabase(':memory:');
    migrateSqlite(db, silentLogger);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    const live = tables.flatMap(({ name }) =>
      (
        db.prepare(`PRAGMA table_info(${name})`).all() as {
          name: string;
          type: string;
          notnull: number;
          pk: number;
        }[]
      ).map((c) => ({
        table: name,
        column: c.name,
        type: c.type,
        nullable: c.notnull === 0,
        primaryKey: c.pk > 0,
      })),
    );
    db.close();
    expect(comparable(live).sort(byName)).toEqual(expected('sqlite').sort(byName));
  });

  const url = process.env.HARBOR_TEST_DATABASE_URL;
  if (!url) console.warn('PostgreSQL schema check skipped: set HARBOR_TEST_DATABASE_URL');
  const itPg = url ? it : it.skip;
  const schema = `tables_check_${process.pid}_${Date.now().toString(36)}`;
  afterAll(async () => {
    if (!url) return;
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  itPg('are what the PostgreSQL migrations create, column by column', async () => {
    const store = await openPostgresStore({ databaseUrl: url as string, schema });
    try {
      const columns = await store.pool.query<{
        table_name: string;
        column_name: string;
        data_type: string;
        is_nullable: string;
        primary_key: boolean;
      }>(
        // The primary-key columns are read once and joined (~20 ms), not looked up per column
        // through information_schema's views (~2 s).
        `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, pk.column_name IS NOT NULL AS primary_key
         FROM information_schema.columns c
         LEFT JOIN (SELECT k.table_name, k.column_name FROM information_schema.table_constraints t
                    JOIN information_schema.key_column_usage k
                      ON k.constraint_schema = t.constraint_schema AND k.constraint_name = t.constraint_name
                    WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = $1) pk
           ON pk.table_name = c.table_name AND pk.column_name = c.column_name
         WHERE c.table_schema = $1`,
        [schema],
      );
      const live = columns.rows.map((c) => ({
        table: c.table_name,
        column: c.column_name,
        // Row versions are INTEGER, timestamps BIGINT: both read as numbers, both are the `int` kind.
        type: c.data_type === 'integer' ? 'bigint' : c.data_type,
        nullable: c.is_nullable === 'YES',
        primaryKey: c.primary_key,
      }));
      expect(comparable(live).sort(byName)).toEqual(expected('postgres').sort(byName));
    } finally {
      await store.close();
    }
  });
});
