/**
 * SQLite schema, version 7: rollback (issue 28). What an applied change's
 * inverse needs is stored when it applies (`undo`: the before-state the guard
 * read and the API's answer; `applied_at`: when, for the rollback window),
 * never re-read later. `rolled_back_by` names the rollback change that claimed
 * it, set by a conditional update so one rollback of a change ever writes.
 */

import type { Migration } from '../types.js';

export const sqlite007Rollback: Migration = {
  version: 7,
  name: 'rollback',
  sql: `
ALTER TABLE changes ADD COLUMN undo TEXT;
ALTER TABLE changes ADD COLUMN applied_at INTEGER;
ALTER TABLE changes ADD COLUMN rolled_back_by TEXT;
ALTER TABLE changes ADD COLUMN rolled_back_at INTEGER;
`,
};
