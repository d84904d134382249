/**
 * SQLite schema, version 4: the notices a change gets once (issue 18). The ts
 * of the thread reply that asked the approvers (marked answered when the
 * change moves on), and when the approvers were reminded and the requester
 * told of the expiry: each set by a conditional update, so one replica sends
 * each notice. Changes that expired before this version count as told.
 */

import type { Migration } from '../types.js';

export const sqlite004ChangeNotices: Migration = {
  version: 4,
  name: 'change-notices',
  sql: `
ALTER TABLE changes ADD COLUMN ask_ts TEXT;
ALTER TABLE changes ADD COLUMN reminded_at INTEGER;
ALTER TABLE changes ADD COLUMN expiry_told_at INTEGER;
UPDATE changes SET expiry_told_at = updated_at WHERE status = 'expired';
CREATE INDEX changes_expiry_untold ON changes (status) WHERE expiry_told_at IS NULL;
`,
};
