/**
 * SQLite schema, version 14: the outbox (issue 39). The domain writes an
 * event row in the same transaction as the change it tells of; every replica
 * reads the rows in `seq` order after its own cursor. `told_here` is 1 when
 * the publishing replica delivered the event to its own subscribers, so the
 * others leave it alone; a row nobody delivered (a worker's) is claimed once
 * by one replica (the leases table, `outbox:<subscriber>:<seq>`). Old rows
 * are pruned by `at`.
 */

import type { Migration } from '../types.js';

export const sqlite014Outbox: Migration = {
  version: 14,
  name: 'outbox',
  sql: `
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  topic TEXT NOT NULL,
  at INTEGER NOT NULL,
  publisher TEXT NOT NULL,
  told_here INTEGER NOT NULL,
  payload TEXT
);
CREATE INDEX outbox_at ON outbox (at);
`,
};
