/**
 * Opens the embedded SQLite database and applies its migrations. The
 * migration runs in a BEGIN IMMEDIATE transaction, which takes SQLite's write
 * lock up front, so two processes starting on the same file apply each
 * migration exactly once (the second waits on busy_timeout, then sees it done).
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from '../runtime/logger.js';
import { toStoreError } from './errors.js';
import { pendingMigrations, SQLITE_MIGRATIONS } from './migrations/migration.js';
import { assertSqliteIntact, damaged, isCorruption } from './sqlite-integrity.js';

export const SQLITE_FILE_NAME = 'harbormaster.sqlite';
/** How long a writer waits for another connection's lock before failing with SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Opens `${dataDir}/harbormaster.sqlite` (creating the directory), or an in-memory database for ':memory:'. */
export function openSqliteDatabase(dataDir: string): Database.Database {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, SQLITE_FILE_NAME);
  }
  const db = new Database(file);
  try {
    // busy_timeout first: switching to WAL needs a lock another starting process may hold.
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL survives a process crash; an OS crash may lose the last commits,
    // which start-up recovery reconciles against the API anyway.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    assertSqliteIntact(db, file);
  } catch (err) {
    db.close();
    // A file that is not a database at all fails on the first pragma that reads it.
    throw isCorruption(err) ? damaged(file, toStoreError(err).message, err) : err;
  }
  return db;
}

/** Applies the SQLite migrations not yet recorded in schema_migrations; returns the versions applied. */
export function migrateSqlite(db: Database.Database, logger: Logger): number[] {
  const run = db.transaction((): number[] => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
    )`);
    const applied = db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[];
    const todo = pendingMigrations(SQLITE_MIGRATIONS, applied);
    const record = db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)');
    for (const migration of todo) {
      db.exec(migration.sql);
      record.run(migration.version, migration.name);
    }
    return todo.map((m) => m.version);
  });
  const applied = run.immediate();
  if (applied.length > 0) logger.info('sqlite store migrated', { applied });
  return applied;
}
