/**
 * SQLite schema, version 12: scheduled changes (issue 41). `scheduled_at` is
 * when a change requested with `--at` applies; the index serves the
 * scheduler's look for approved changes whose time has come, on every
 * replica. Which replica applies one is decided by the apply lease and the
 * atomic move to `applying`, as for a click.
 */

import type { Migration } from '../types.js';

export const sqlite012ScheduledChanges: Migration = {
  version: 12,
  name: 'scheduled-changes',
  sql: `
ALTER TABLE changes ADD COLUMN scheduled_at INTEGER;
CREATE INDEX changes_scheduled ON changes (scheduled_at) WHERE scheduled_at IS NOT NULL;
`,
};
