/**
 * The PostgreSQL store for several replicas: a pg Pool, JSONB columns, and
 * conditional updates as single `UPDATE ... WHERE status = ANY($n) RETURNING *`
 * statements. Under READ COMMITTED a concurrent updater of the same row waits
 * for the winner to commit and then re-checks the WHERE, so it loses cleanly.
 */

import pg from 'pg';
import type { Logger } from '../runtime/logger.js';
import { silentLogger } from '../runtime/logger.js';
import { toStoreError } from './errors.js';
import { OUTBOX_CHANNEL } from './outbox-store.js';
import { assertSchemaName, migratePostgres } from './postgres-migrate.js';
import type { Row } from './rows.js';
import type { Query } from './sql.js';
import { SqlStore } from './sql-store.js';

interface PostgresStoreOptions {
  databaseUrl: string;
  /** Schema for all tables (created if missing); default: the server's search_path. */
  schema?: string;
  logger?: Logger;
  /**
   * The pool's `application_name`: this replica's id, so pg_stat_activity and the server's
   * logs say which replica holds a connection or a lock (default: `harbormaster`).
   */
  applicationName?: string;
  /** Pool size; the default (10) suits one bot replica. */
  maxConnections?: number;
  /**
   * Connect, statement (server side) and query (client side) timeout; default 10 s. The
   * client-side one matters most: a database that stops answering (network stall, hung
   * server) would otherwise leave a query, and the click waiting on it, pending for ever.
   */
  timeoutMs?: number;
}

/** Default for PostgresStoreOptions.timeoutMs. */
const DEFAULT_POSTGRES_TIMEOUT_MS = 10_000;

/** Opens a pool for the store, pinning search_path to `schema` on every connection. */
function createPostgresPool(options: PostgresStoreOptions): pg.Pool {
  if (options.schema !== undefined) assertSchemaName(options.schema);
  const timeoutMs = options.timeoutMs ?? DEFAULT_POSTGRES_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    // A connection whose peer vanished without a FIN is found out and dropped.
    keepAlive: true,
    // PostgreSQL cuts application_name to 63 bytes; a longer pod name would only be truncated.
    application_name: (options.applicationName ?? 'harbormaster').slice(0, 63),
    ...(options.schema !== undefined ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, that would crash the bot.
  pool.on('error', (err) => (options.logger ?? silentLogger).warn('postgres idle client error', { err }));
  return pool;
}

/** Opens the PostgreSQL store and migrates it. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const store = new PostgresStore(
    createPostgresPool(options),
    options.schema,
    options.logger ?? silentLogger,
  );
  try {
    await store.migrate();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

export class PostgresStore extends SqlStore {
  readonly kind = 'postgres' as const;
  private closed = false;

  /** Wraps a pool (see createPostgresPool); `pool` stays public for tests and tools. */
  constructor(
    readonly pool: pg.Pool,
    private readonly schema: string | undefined,
    private readonly logger: Logger = silentLogger,
  ) {
    super('postgres');
  }

  async migrate(): Promise<void> {
    await migratePostgres(this.pool, this.schema, this.logger);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** One pooled connection for the whole transaction. */
  protected async inTransaction<T>(work: (rows: (query: Query) => Promise<Row[]>) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw toStoreError(err);
    }
    try {
      await client.query('BEGIN');
      const out = await work(
        async (query) => (await client.query(query.sql, query.params as unknown[])).rows as Row[],
      );
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw toStoreError(err);
    } finally {
      client.release();
    }
  }

  /**
   * LISTENs on the outbox's channel on a connection of its own, outside the
   * pool (it is held for as long as the replica runs, and the pool's
   * connections are for statements); a lost connection ends the listening
   * (readers still poll) and is logged.
   */
  async listenOutbox(wake: () => void): Promise<() => Promise<void>> {
    const client = new pg.Client((this.pool as unknown as { options: pg.ClientConfig }).options);
    await client.connect();
    const onNotice = (message: pg.Notification) => {
      if (message.channel === OUTBOX_CHANNEL) wake();
    };
    const onError = (error: unknown) =>
      this.logger.warn('the outbox listener lost its connection', { error });
    client.on('notification', onNotice);
    client.on('error', onError);
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    return async () => {
      client.off('notification', onNotice);
      await client.query(`UNLISTEN ${OUTBOX_CHANNEL}`).catch(() => undefined);
      await client.end().catch(() => undefined);
      client.off('error', onError);
    };
  }

  protected async rows(query: Query): Promise<Row[]> {
    try {
      const result = await this.pool.query(query.sql, query.params as unknown[]);
      return result.rows as Row[];
    } catch (err) {
      // One error class for both stores, so the Slack layer can say "the database is unavailable".
      throw toStoreError(err);
    }
  }
}
