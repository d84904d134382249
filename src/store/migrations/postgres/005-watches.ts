/**
 * PostgreSQL schema, version 5: watches (issue 29). `watch_subscriptions` holds
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

export const postgres005Watches: Migration = {
  version: 5,
  name: 'watches',
  sql: `
CREATE TABLE watch_subscriptions (
  workspace TEXT NOT NULL,
  channel TEXT NOT NULL,
  env TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace, channel, env)
);
CREATE TABLE watch_pollers (
  env TEXT PRIMARY KEY,
  last_poll_at BIGINT,
  failures BIGINT NOT NULL,
  paused_status BIGINT,
  paused_at BIGINT,
  resume_at BIGINT,
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
  first_bad_at BIGINT NOT NULL,
  last_bad_at BIGINT NOT NULL,
  good_since BIGINT,
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
  first_bad_at BIGINT NOT NULL,
  opened_at BIGINT NOT NULL,
  message_ts TEXT,
  post_claim TEXT,
  post_claim_at BIGINT,
  recovered_at BIGINT,
  lasted_ms BIGINT,
  drawn TEXT NOT NULL CHECK (drawn IN ('none', 'open', 'recovered')),
  muted_until BIGINT,
  muted_by TEXT
);
CREATE TABLE watch_progress (
  env TEXT NOT NULL,
  object_key TEXT NOT NULL,
  mark TEXT NOT NULL,
  since BIGINT NOT NULL,
  PRIMARY KEY (env, object_key)
);
CREATE UNIQUE INDEX watch_alerts_one_open ON watch_alerts (workspace, channel, env, object_key) WHERE recovered_at IS NULL;
CREATE INDEX watch_alerts_by_object ON watch_alerts (env, object_key);
`,
};
