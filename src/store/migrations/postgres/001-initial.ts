/**
 * PostgreSQL schema, version 1: JSONB for opaque JSON, BIGINT epoch ms.
 * Unqualified names: the migrator sets search_path to the configured schema.
 * Frozen once released: later changes go into a new numbered migration.
 */

import type { Migration } from '../types.js';

export const postgres001Initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE changes (
  id TEXT PRIMARY KEY,
  operation TEXT NOT NULL,
  request JSONB,
  preview JSONB,
  requester TEXT NOT NULL,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  thread_ts TEXT,
  message_ts TEXT,
  release_id TEXT,
  status TEXT NOT NULL CHECK (status IN
    ('pending','awaiting_approval','approved','applying','succeeded','failed','cancelled','expired')),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  confirmed_by TEXT,
  applying_owner TEXT,
  applying_since BIGINT,
  apply_token TEXT,
  result JSONB,
  error JSONB,
  version INTEGER NOT NULL
);
CREATE INDEX changes_status_expires ON changes (status, expires_at);
CREATE INDEX changes_requester ON changes (requester, created_at);
CREATE INDEX changes_release ON changes (release_id) WHERE release_id IS NOT NULL;
CREATE INDEX changes_created ON changes (created_at, id);

CREATE TABLE approvals (
  change_id TEXT NOT NULL REFERENCES changes (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  decision TEXT NOT NULL CHECK (decision IN ('approve','reject')),
  at BIGINT NOT NULL,
  comment TEXT,
  PRIMARY KEY (change_id, user_id)
);

CREATE TABLE audit (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at BIGINT NOT NULL,
  change_id TEXT,
  actor TEXT NOT NULL,
  workspace TEXT,
  channel TEXT,
  action TEXT NOT NULL,
  operation TEXT,
  params JSONB,
  outcome TEXT,
  detail JSONB
);
CREATE INDEX audit_change ON audit (change_id, at, id) WHERE change_id IS NOT NULL;
CREATE INDEX audit_at ON audit (at, id);
CREATE INDEX audit_actor ON audit (actor, at);
-- The audit log must stay trustworthy even against a stray UPDATE/DELETE/TRUNCATE
-- in a maintenance script, so the database itself refuses them.
CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'audit log is append-only: % refused', TG_OP;
END
$fn$;
CREATE TRIGGER audit_no_update_delete BEFORE UPDATE OR DELETE ON audit
  FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
  FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();

CREATE TABLE releases (
  id TEXT PRIMARY KEY,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  message_ts TEXT,
  title TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open','ended')),
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  ended_at BIGINT,
  data JSONB,
  version INTEGER NOT NULL
);
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
  started_at BIGINT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active','stopped')),
  stop_reason TEXT,
  state JSONB,
  version INTEGER NOT NULL
);
CREATE INDEX tails_status ON tails (status, started_at);

CREATE TABLE leases (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
`,
};
