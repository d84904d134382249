/**
 * SQLite schema, version 3: the audit log refuses REPLACE as well. SQLite's
 * REPLACE conflict resolution (`REPLACE INTO`, `INSERT OR REPLACE`) deletes
 * the conflicting row without firing DELETE triggers (recursive_triggers is
 * off), so the UPDATE/DELETE triggers of version 1 never see it and an audit
 * row could be rewritten under its own id. An insert is refused whenever its
 * id is already taken, which is what PostgreSQL's identity column and
 * triggers already guarantee there.
 */

import type { Migration } from '../types.js';

export const sqlite003AuditNoReplace: Migration = {
  version: 3,
  name: 'audit-no-replace',
  sql: `
CREATE TRIGGER audit_no_replace BEFORE INSERT ON audit
WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM audit WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'audit log is append-only: REPLACE refused'); END;
`,
};
