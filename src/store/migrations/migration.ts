/**
 * Numbered schema migrations. Each store keeps its own ordered list and records
 * applied versions in a `schema_migrations` table, applying the missing ones in
 * one transaction under a lock so concurrent start-ups cannot race.
 */

import { postgres001Initial } from './postgres/001-initial.js';
import { postgres002DrawnStatus } from './postgres/002-drawn-status.js';
import { postgres003ChangeNotices } from './postgres/003-change-notices.js';
import { postgres004SlackBudget } from './postgres/004-slack-budget.js';
import { postgres005Watches } from './postgres/005-watches.js';
import { postgres006Rollback } from './postgres/006-rollback.js';
import { postgres007LeaseExpiryIndex } from './postgres/007-lease-expiry-index.js';
import { postgres008FollowState } from './postgres/008-follow-state.js';
import { postgres009AlertFleets } from './postgres/009-alert-fleets.js';
import { postgres010Freezes } from './postgres/010-freezes.js';
import { postgres011ScheduledChanges } from './postgres/011-scheduled-changes.js';
import { postgres012Guards } from './postgres/012-guards.js';
import { sqlite001Initial } from './sqlite/001-initial.js';
import { sqlite002DrawnStatus } from './sqlite/002-drawn-status.js';
import { sqlite003AuditNoReplace } from './sqlite/003-audit-no-replace.js';
import { sqlite004ChangeNotices } from './sqlite/004-change-notices.js';
import { sqlite005SlackBudget } from './sqlite/005-slack-budget.js';
import { sqlite006Watches } from './sqlite/006-watches.js';
import { sqlite007Rollback } from './sqlite/007-rollback.js';
import { sqlite008LeaseExpiryIndex } from './sqlite/008-lease-expiry-index.js';
import { sqlite009FollowState } from './sqlite/009-follow-state.js';
import { sqlite010AlertFleets } from './sqlite/010-alert-fleets.js';
import { sqlite011Freezes } from './sqlite/011-freezes.js';
import { sqlite012ScheduledChanges } from './sqlite/012-scheduled-changes.js';
import { sqlite013Guards } from './sqlite/013-guards.js';
import type { Migration } from './types.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  sqlite001Initial,
  sqlite002DrawnStatus,
  sqlite003AuditNoReplace,
  sqlite004ChangeNotices,
  sqlite005SlackBudget,
  sqlite006Watches,
  sqlite007Rollback,
  sqlite008LeaseExpiryIndex,
  sqlite009FollowState,
  sqlite010AlertFleets,
  sqlite011Freezes,
  sqlite012ScheduledChanges,
  sqlite013Guards,
];
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  postgres001Initial,
  postgres002DrawnStatus,
  postgres003ChangeNotices,
  postgres004SlackBudget,
  postgres005Watches,
  postgres006Rollback,
  postgres007LeaseExpiryIndex,
  postgres008FollowState,
  postgres009AlertFleets,
  postgres010Freezes,
  postgres011ScheduledChanges,
  postgres012Guards,
];

/** The migrations whose version is not in `applied`, in version order. */
export function pendingMigrations(all: readonly Migration[], applied: Iterable<number>): Migration[] {
  const done = new Set(applied);
  return all.filter((m) => !done.has(m.version)).sort((a, b) => a.version - b.version);
}
