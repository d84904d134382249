/**
 * PostgreSQL schema, version 7: an index on the leases' expiry. Request keys,
 * opened views and Home viewers share the leases table under their own
 * prefixes, and each command, click and modal forgets the expired ones of its
 * kind first (`DELETE ... WHERE key LIKE 'view:%' AND expires_at <= now`).
 * The primary key cannot serve that LIKE under a non-C collation, so without
 * this index the delete read every lease, live ones included, on every request.
 */

import type { Migration } from '../types.js';

export const postgres007LeaseExpiryIndex: Migration = {
  version: 7,
  name: 'lease-expiry-index',
  sql: `
CREATE INDEX IF NOT EXISTS leases_expires_at ON leases (expires_at);
`,
};
