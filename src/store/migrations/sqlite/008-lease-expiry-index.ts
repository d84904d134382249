/**
 * SQLite schema, version 8: an index on the leases' expiry. Request keys,
 * opened views and Home viewers share the leases table under their own
 * prefixes, and each command, click and modal forgets the expired ones of its
 * kind first (`DELETE ... WHERE key LIKE 'view:%' AND expires_at <= now`).
 * Without this index that delete read every lease, live ones included, on
 * every request; with it, only the expired rows are visited.
 */

import type { Migration } from '../types.js';

export const sqlite008LeaseExpiryIndex: Migration = {
  version: 8,
  name: 'lease-expiry-index',
  sql: `
CREATE INDEX IF NOT EXISTS leases_expires_at ON leases (expires_at);
`,
};
