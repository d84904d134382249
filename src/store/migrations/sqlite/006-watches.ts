/**
 * SQLite schema, version 6: watches (issue 29). `watch_subscriptions` holds
 * which channel watches which environment; `watch_pollers` one row per
 * environment saying when it was last listed and whether polling is paused
 * after an API error (the lease itself lives in `leases` under
 * `watch:<env>`); `watch_troubles` what the poller has seen wrong per object
 * (so a replica taking over keeps the settle clock); `watch_alerts` one row
 * per episode and channel, at most one open per object and channel (the
 * partial unique index), whichever replica tries to open it; `watch_progress`
 * where each followed rollout stood and since when (a rollout that stopped
 * moving is trouble).
 */

import type { Migration } from '../types.js';

export const sqlite006Watches: Migration = {
  version: 6,
  name: 'watches',
  sql: `
CREATE TABLE watch_subscriptions (
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  env TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (workspace, channel, env)
);
CREATE TABLE watch_pollers (
  env TEXT PRIMARY KEY,
  last_poll_at INTEGER,
  failures INTEGER NOT NULL,
  paused_status INTEGER,
  paused_at INTEGER,
  resume_at INTEGER,
  paused_reason TEXT
);
CREATE TABLE watch_troubles (
  env TEXT NOT NULL,
  object_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  state TEXT NOT NULL,
  reason TEXT,
  detail TEXT,
  first_bad_at INTEGER NOT NULL,
  last_bad_at INTEGER NOT NULL,
  good_since INTEGER,
  PRIMARY KEY (env, object_key)
);
CREATE TABLE watch_alerts (
  id TEXT PRIMARY KEY,
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  env TEXT NOT NULL,
  object_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  region TEXT,
  state TEXT NOT NULL,
  reason TEXT,
  detail TEXT,
  first_bad_at INTEGER NOT NULL,
  opened_at INTEGER NOT NULL,
  message_ts TEXT,
  post_claim TEXT,
  post_claim_at INTEGER,
  recovered_at INTEGER,
  lasted_ms INTEGER,
  drawn TEXT NOT NULL CHECK (drawn IN ('none', 'open', 'recovered')),
  muted_until INTEGER,
  muted_by TEXT
);
CREATE TABLE watch_progress (
  env TEXT NOT NULL,
  object_key TEXT NOT NULL,
  mark TEXT NOT NULL,
  since INTEGER NOT NULL,
  PRIMARY KEY (env, object_key)
);
CREATE UNIQUE INDEX watch_alerts_one_open ON watch_alerts (workspace, channel, env, object_key) WHERE recovered_at IS NULL;
CREATE INDEX watch_alerts_by_object ON watch_alerts (env, object_key);
`,
};
