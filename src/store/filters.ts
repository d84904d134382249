/**
 * SELECT statements for the list/query methods, built from their filter
 * objects. Each filter field is optional and they combine with AND.
 */

import { type SqlParams, whereSql } from './sql.js';
import type { AuditFilter, ChangeFilter, ChangeNotice, ReleaseFilter, TailFilter } from './types.js';

/** The column that records when each notice was claimed. */
export const NOTICE_COLUMNS: Record<ChangeNotice, 'reminded_at' | 'expiry_told_at'> = {
  reminder: 'reminded_at',
  expiry: 'expiry_told_at',
};

/** `column = value` conditions for the defined entries of `fields`. */
function equalities(fields: Record<string, string | undefined>, p: SqlParams): string[] {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([column, value]) => `${column} = ${p.add(value)}`);
}

function limitSql(limit: number | undefined, p: SqlParams): string {
  return limit === undefined ? '' : ` LIMIT ${p.add(limit)}`;
}

/** SELECT for listChanges (the caller handles an empty status list, which matches nothing). */
export function changesSelect(filter: ChangeFilter, p: SqlParams): string {
  const conditions = filter.status ? [p.oneOf('status', filter.status)] : [];
  if (filter.ids) conditions.push(filter.ids.length ? p.anyOf('id', filter.ids) : 'FALSE');
  conditions.push(
    ...equalities({ requester: filter.requester, release_id: filter.releaseId }, p),
    ...(filter.createdAfter !== undefined ? [`created_at > ${p.add(filter.createdAfter)}`] : []),
    ...(filter.appliedAfter !== undefined ? [`applied_at > ${p.add(filter.appliedAfter)}`] : []),
    ...(filter.followDue ? ["follow_state = 'due'"] : []),
    ...(filter.scheduled || filter.dueBy !== undefined ? ['scheduled_at IS NOT NULL'] : []),
    ...(filter.dueBy !== undefined ? [`scheduled_at <= ${p.add(filter.dueBy)}`] : []),
    ...(filter.undrawn ? ['message_ts IS NOT NULL', '(drawn_status IS NULL OR drawn_status <> status)'] : []),
    ...(filter.unnoticed ? ['message_ts IS NOT NULL', `${NOTICE_COLUMNS[filter.unnoticed]} IS NULL`] : []),
  );
  return `SELECT * FROM changes${whereSql(conditions)} ORDER BY created_at, id${limitSql(filter.limit, p)}`;
}

/** SELECT for queryAudit; the time range is inclusive at both ends. */
export function auditSelect(filter: AuditFilter, p: SqlParams): string {
  const conditions = equalities({ change_id: filter.changeId }, p);
  if (filter.from !== undefined) conditions.push(`at >= ${p.add(filter.from)}`);
  if (filter.to !== undefined) conditions.push(`at <= ${p.add(filter.to)}`);
  conditions.push(...equalities({ actor: filter.actor }, p));
  if (filter.actions) conditions.push(filter.actions.length ? p.oneOf('action', filter.actions) : 'FALSE');
  if (filter.beforeId !== undefined) conditions.push(`id < ${p.add(filter.beforeId)}`);
  // Newest first goes by id (append order), the same key beforeId pages by, so pages never overlap.
  const order = filter.newestFirst ? 'id DESC' : 'at, id';
  return `SELECT * FROM audit${whereSql(conditions)} ORDER BY ${order}${limitSql(filter.limit, p)}`;
}

/** SELECT for listReleases. */
export function releasesSelect(filter: ReleaseFilter, p: SqlParams): string {
  const conditions = equalities({ status: filter.status, workspace: filter.workspace }, p);
  return `SELECT * FROM releases${whereSql(conditions)} ORDER BY created_at, id`;
}

/** SELECT for listTails. */
export function tailsSelect(filter: TailFilter, p: SqlParams): string {
  const fields = { status: filter.status, release_id: filter.releaseId, workspace: filter.workspace };
  return `SELECT * FROM tails${whereSql(equalities(fields, p))} ORDER BY started_at, id`;
}
