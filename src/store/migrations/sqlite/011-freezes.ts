/**
 * SQLite schema, version 11: freezes (issue 41). One row per `/harbor
 * freeze`; it is in force while `ended_at` is null and `until_at`, if set,
 * is still ahead, so every replica sees the same freezes and a timed one
 * expires without a write. The index serves the check every change makes.
 */

import type { Migration } from '../types.js';

export const sqlite011Freezes: Migration = {
  version: 11,
  name: 'freezes',
  sql: `
CREATE TABLE freezes (
  id TEXT PRIMARY KEY,
  env TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  until_at INTEGER,
  reason TEXT,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  ended_at INTEGER,
  ended_by TEXT
);
CREATE INDEX freezes_open ON freezes (env) WHERE ended_at IS NULL;
`,
};
