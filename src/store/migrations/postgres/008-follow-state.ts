/**
 * PostgreSQL schema, version 8: whether an applied change's follow-up is
 * still owed (`due`) or ran to its end (`over`), so housekeeping resumes one
 * that a stopped replica cut short (changes/follow-due.ts). Existing rows
 * have none: their follow-ups may well have ended, and are never resumed.
 */

import type { Migration } from '../types.js';

export const postgres008FollowState: Migration = {
  version: 8,
  name: 'follow-state',
  sql: `
ALTER TABLE changes ADD COLUMN follow_state TEXT CHECK (follow_state IN ('due', 'over'));
CREATE INDEX changes_follow_due ON changes (applied_at) WHERE follow_state = 'due';
`,
};
