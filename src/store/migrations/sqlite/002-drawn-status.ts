/**
 * SQLite schema, version 2: which status a change's Slack message last showed,
 * so housekeeping can redraw a final change whose message still shows buttons
 * (the rewrite failed during a Slack outage). Existing rows count as drawn.
 */

import type { Migration } from '../types.js';

export const sqlite002DrawnStatus: Migration = {
  version: 2,
  name: 'drawn-status',
  sql: `
ALTER TABLE changes ADD COLUMN drawn_status TEXT;
UPDATE changes SET drawn_status = status;
CREATE INDEX changes_undrawn ON changes (status) WHERE drawn_status IS NULL OR drawn_status <> status;
`,
};
