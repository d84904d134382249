/**
 * The embedded store: better-sqlite3 on a local file in WAL mode. The driver
 * is synchronous, so within one process statements never interleave; across
 * processes each conditional update is one `UPDATE ... WHERE ... RETURNING`
 * statement, which SQLite runs atomically under its write lock.
 */

import type Database from 'better-sqlite3';
import type { Logger } from '../runtime/logger.js';
import { silentLogger } from '../runtime/logger.js';
import { toStoreError } from './errors.js';
import type { Row } from './rows.js';
import type { Query } from './sql.js';
import { SqlStore } from './sql-store.js';
import { migrateSqlite, openSqliteDatabase } from './sqlite-migrate.js';

/** Opens the SQLite store in `dataDir` (or ':memory:') and migrates it. */
export async function openSqliteStore(options: { dataDir: string; logger?: Logger }): Promise<SqliteStore> {
  const store = new SqliteStore(openSqliteDatabase(options.dataDir), options.logger ?? silentLogger);
  try {
    await store.migrate();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

export class SqliteStore extends SqlStore {
  readonly kind = 'sqlite' as const;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;
  /** Transactions of this process, one after another (one connection: SQLite cannot nest them). */
  private transactions: Promise<unknown> = Promise.resolve();

  /** Wraps an open database (see openSqliteDatabase); `db` stays public for tests and tools. */
  constructor(
    readonly db: Database.Database,
    private readonly logger: Logger = silentLogger,
  ) {
    super('sqlite');
  }

  async migrate(): Promise<void> {
    try {
      migrateSqlite(this.db, this.logger);
    } catch (err) {
      throw toStoreError(err);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  protected async rows(query: Query): Promise<Row[]> {
    // better-sqlite3 binds arrays as multiple parameters, which SqlParams never produces for SQLite.
    try {
      return this.prepared(query.sql).all(...(query.params as (string | number | null)[])) as Row[];
    } catch (err) {
      throw toStoreError(err);
    }
  }

  /**
   * BEGIN IMMEDIATE takes the write lock at once (another process waits on
   * busy_timeout). The driver is synchronous and `work` only runs statements,
   * so the transaction is short; a statement this process runs for other
   * work meanwhile joins it and commits with it, which is harmless.
   */
  protected inTransaction<T>(work: (rows: (query: Query) => Promise<Row[]>) => Promise<T>): Promise<T> {
    const run = this.transactions.then(async () => {
      try {
        this.db.exec('BEGIN IMMEDIATE');
      } catch (err) {
        throw toStoreError(err);
      }
      try {
        const out = await work((query) => this.rows(query));
        this.db.exec('COMMIT');
        return out;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw toStoreError(err);
      }
    });
    this.transactions = run.catch(() => undefined);
    return run;
  }

  /** Prepared statements cached by text: the set of statement shapes is small and fixed. */
  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
