/**
 * Chooses the store: PostgreSQL when a database URL is configured (several
 * replicas can share it), otherwise the embedded SQLite file in the data
 * directory. Either way the schema is migrated before the store is returned.
 */

import type { OpenStoreOptions, Store } from './types.js';

export type * from './freeze-types.js';
export * from './guard-types.js';
export type * from './types.js';
export { CHANGE_STATUSES, EXPIRABLE_STATUSES } from './types.js';
export type * from './watch-types.js';
export { WATCH_KINDS } from './watch-types.js';

/** Default SQLite directory when neither a database URL nor a data directory is given. */
const DEFAULT_DATA_DIR = './data';

/** Opens and migrates the configured store. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // Each driver is loaded only when chosen: a SQLite replica never loads pg, nor a PostgreSQL one the addon (docs/memory.md).
  if (options.databaseUrl) {
    const { openPostgresStore } = await import('./postgres-store.js');
    return openPostgresStore({
      databaseUrl: options.databaseUrl,
      schema: options.schema,
      logger: options.logger,
      ...(options.applicationName !== undefined ? { applicationName: options.applicationName } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }
  const { openSqliteStore } = await import('./sqlite-store.js');
  return openSqliteStore({ dataDir: options.dataDir ?? DEFAULT_DATA_DIR, logger: options.logger });
}
