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

/**
 * How long one migration statement (the lock wait included) may take. The pool's own timeout
 * bounds a click's wait on the database, a few seconds; a migration may rightly take longer: a
 * second replica waits here while the first migrates, and a CREATE INDEX on a big table runs for
 * minutes. A database that never answers still ends the start, after this.
 */
export const MIGRATION_TIMEOUT_MS = 10 * 60_000;

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
  const connection = await pool.connect();
  // Each statement carries the migration's client-side timeout, and the transaction its server-side one.
  const client = {
    query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
      // pg reads query_timeout from a query's config; @types/pg does not list it.
      const config: pg.QueryConfig & { query_timeout: number } = {
        text,
        ...(values ? { values } : {}),
        query_timeout: MIGRATION_TIMEOUT_MS,
      };
      return connection.query<R>(config);
    },
  };
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
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
    connection.release();
  }
}
