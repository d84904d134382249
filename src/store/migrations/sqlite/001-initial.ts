/**
 * SQLite schema, version 1. STRICT tables so a non-integer timestamp is refused
 * here just as PostgreSQL's BIGINT refuses it. JSON is stored as TEXT.
 * Frozen once released: later changes go into a new numbered migration.
 */

import type { Migration } from '../types.js';

export const sqlite001Initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE changes (
  id TEXT PRIMARY KEY,
  operation TEXT NOT NULL,
  request TEXT,
  preview TEXT,
  requester TEXT NOT NULL,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  thread_ts TEXT,
  message_ts TEXT,
  release_id TEXT,
  status TEXT NOT NULL CHECK (status IN
    ('pending','awaiting_approval','approved','applying','succeeded','failed','cancelled','expired')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  confirmed_by TEXT,
  applying_owner TEXT,
  applying_since INTEGER,
  apply_token TEXT,
  result TEXT,
  error TEXT,
  version INTEGER NOT NULL
) STRICT;
CREATE INDEX changes_status_expires ON changes (status, expires_at);
CREATE INDEX changes_requester ON changes (requester, created_at);
CREATE INDEX changes_release ON changes (release_id) WHERE release_id IS NOT NULL;
CREATE INDEX changes_created ON changes (created_at, id);

CREATE TABLE approvals (
  change_id TEXT NOT NULL REFERENCES changes (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  decision TEXT NOT NULL CHECK (decision IN ('approve','reject')),
  at INTEGER NOT NULL,
  comment TEXT,
  PRIMARY KEY (change_id, user_id)
) STRICT;

CREATE TABLE audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  change_id TEXT,
  actor TEXT NOT NULL,
  workspace TEXT,
  channel TEXT,
  action TEXT NOT NULL,
  operation TEXT,
  params TEXT,
  outcome TEXT,
  detail TEXT
) STRICT;
CREATE INDEX audit_change ON audit (change_id, at, id) WHERE change_id IS NOT NULL;
CREATE INDEX audit_at ON audit (at, id);
CREATE INDEX audit_actor ON audit (actor, at);
-- The audit log must stay trustworthy even against a stray UPDATE/DELETE in a
-- maintenance script, so the database itself refuses them.
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'audit log is append-only: UPDATE refused'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'audit log is append-only: DELETE refused'); END;

CREATE TABLE releases (
  id TEXT PRIMARY KEY,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  message_ts TEXT,
  title TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open','ended')),
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  ended_at INTEGER,
  data TEXT,
  version INTEGER NOT NULL
) STRICT;
CREATE INDEX releases_message ON releases (channel, message_ts);
CREATE INDEX releases_title ON releases (workspace, channel, title, status);

CREATE TABLE tails (
  id TEXT PRIMARY KEY,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  thread_ts TEXT,
  message_ts TEXT,
  env TEXT NOT NULL,
  vessel TEXT NOT NULL,
  container TEXT,
  release_id TEXT,
  started_by TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active','stopped')),
  stop_reason TEXT,
  state TEXT,
  version INTEGER NOT NULL
) STRICT;
CREATE INDEX tails_status ON tails (status, started_at);

CREATE TABLE leases (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
`,
};
