/**
 * PostgreSQL schema, version 12: guards (issue 42). One row per guarded
 * change, from its apply until its window ends; the replica watching it
 * holds the lease in the row (owner, lease_until), so a dead one is
 * replaced once its lease lapses. The index serves every replica's pass.
 */

import type { Migration } from '../types.js';

export const postgres012Guards: Migration = {
  version: 12,
  name: 'guards',
  sql: `
CREATE TABLE guards (
  change_id TEXT PRIMARY KEY,
  rule TEXT NOT NULL,
  within_ms BIGINT NOT NULL,
  window_end BIGINT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('watching', 'rolling_back', 'passed', 'rolled_back', 'held')),
  owner TEXT,
  lease_until BIGINT,
  trouble JSONB,
  touched JSONB,
  trigger_seen TEXT,
  rollback_id TEXT,
  reason TEXT,
  created_at BIGINT NOT NULL,
  ended_at BIGINT
);
CREATE INDEX guards_open ON guards (created_at) WHERE state IN ('watching', 'rolling_back');
`,
};
