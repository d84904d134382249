/**
 * PostgreSQL schema, version 4: Slack's rate limits shared by every replica
 * (issue 22.1). `slack_budget` holds one rate gate per key (workspace and
 * method, or a channel's posts) as the theoretical arrival time of the next
 * call (epoch ms); `slack_budget_demand` holds, per gate and replica, how many
 * tails want slots there now, so each replica takes its fair share.
 */

import type { Migration } from '../types.js';

export const postgres004SlackBudget: Migration = {
  version: 4,
  name: 'slack-budget',
  sql: `
CREATE TABLE slack_budget (
  key TEXT PRIMARY KEY,
  tat BIGINT NOT NULL
);
CREATE TABLE slack_budget_demand (
  key TEXT NOT NULL,
  replica TEXT NOT NULL,
  consumers BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (key, replica)
);
`,
};
