/**
 * SQLite schema, version 15: Slack's drawing state leaves the changes table
 * (issue 39). Where a change's message is (its ts), the thread reply that
 * asked the approvers, and the status the message last showed belong to
 * Slack's change-message owner (src/slack/change-messages), in a table of
 * its own; the domain's change row keeps none of it. Existing rows move over.
 */

import type { Migration } from '../types.js';

export const sqlite015SlackChangeMessages: Migration = {
  version: 15,
  name: 'slack-change-messages',
  sql: `
CREATE TABLE slack_change_messages (
  change_id TEXT PRIMARY KEY,
  channel TEXT NOT NULL,
  message_ts TEXT,
  ask_ts TEXT,
  drawn_status TEXT
);
INSERT INTO slack_change_messages (change_id, channel, message_ts, ask_ts, drawn_status)
  SELECT id, channel, message_ts, ask_ts, drawn_status FROM changes
  WHERE message_ts IS NOT NULL OR ask_ts IS NOT NULL;
CREATE INDEX slack_change_messages_undrawn ON slack_change_messages (drawn_status);
DROP INDEX changes_undrawn;
ALTER TABLE changes DROP COLUMN message_ts;
ALTER TABLE changes DROP COLUMN ask_ts;
ALTER TABLE changes DROP COLUMN drawn_status;
`,
};
