/**
 * PostgreSQL schema, version 10: freezes (issue 41). One row per `/harbor
 * freeze`; it is in force while `ended_at` is null and `until_at`, if set,
 * is still ahead, so every replica sees the same freezes and a timed one
 * expires without a write. The index serves the check every change makes.
 */

import type { Migration } from '../types.js';

export const postgres010Freezes: Migration = {
  version: 10,
  name: 'freezes',
  sql: `
CREATE TABLE freezes (
  id TEXT PRIMARY KEY,
  env TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  until_at BIGINT,
  reason TEXT,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  ended_at BIGINT,
  ended_by TEXT
);
CREATE INDEX freezes_open ON freezes (env) WHERE ended_at IS NULL;
`,
};
