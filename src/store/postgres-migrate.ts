/**
 * PostgreSQL migrations, safe when several replicas start at once: everything
 * (creating the schema, reading schema_migrations, applying what is missing)
 * happens in one transaction holding a transaction-scoped advisory lock, so a
 * second process waits, then finds the work done and commits nothing.
 */

import type pg from 'pg';
import type { Logger } from '../runtime/logger.js';
import { POSTGRES_MIGRATIONS, pendingMigrations } from './migrations/migration.js';

/** Advisory lock id shared by every Harbormaster migrator ("HBMS"); one database-wide lock keeps it simple. */
const MIGRATION_LOCK_ID = 0x48424d53;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Throws unless `schema` is a plain lowercase identifier (it is interpolated into SQL and connection options). */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `invalid PostgreSQL schema name "${schema}": expected lowercase letters, digits and _ (e.g. harbormaster)`,
    );
  }
}

/** Applies the missing migrations (creating `schema` first when given); returns the versions applied. */
export async function migratePostgres(
  pool: pg.Pool,
  schema: string | undefined,
  logger: Logger,
): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    if (schema !== undefined) {
      assertSchemaName(schema);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      // The pool's search_path names the schema, but it may not have existed when this session began.
      await client.query(`SET LOCAL search_path TO ${schema}`);
    }
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
    const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const todo = pendingMigrations(
      POSTGRES_MIGRATIONS,
      done.rows.map((r) => r.version),
    );
    for (const migration of todo) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
    if (todo.length > 0)
      logger.info('postgres store migrated', { schema, applied: todo.map((m) => m.version) });
    return todo.map((m) => m.version);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
