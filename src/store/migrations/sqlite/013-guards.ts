/**
 * SQLite schema, version 13: guards (issue 42). One row per guarded
 * change, from its apply until its window ends; the replica watching it
 * holds the lease in the row (owner, lease_until), so a dead one is
 * replaced once its lease lapses. The index serves every replica's pass.
 */

import type { Migration } from '../types.js';

export const sqlite013Guards: Migration = {
  version: 13,
  name: 'guards',
  sql: `
CREATE TABLE guards (
  change_id TEXT PRIMARY KEY,
  rule TEXT NOT NULL,
  within_ms INTEGER NOT NULL,
  window_end INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('watching', 'rolling_back', 'passed', 'rolled_back', 'held')),
  owner TEXT,
  lease_until INTEGER,
  trouble TEXT,
  touched TEXT,
  trigger_seen TEXT,
  rollback_id TEXT,
  reason TEXT,
  created_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX guards_open ON guards (created_at) WHERE state IN ('watching', 'rolling_back');
`,
};
