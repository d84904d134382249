/**
 * Turns database rows (snake_case columns, identical in both schemas) into
 * records. The drivers differ only in how JSON and BIGINT arrive, so each
 * store passes its JSON decoder and every number goes through Number()
 * (pg returns BIGINT as a string to avoid precision loss; epoch ms fit).
 */

import type {
  ApprovalRecord,
  AuditEntry,
  ChangeRecord,
  ChangeStatus,
  Lease,
  ReleaseRecord,
  TailRecord,
} from './types.js';

export type Row = Record<string, unknown>;
/** Decodes a JSON column value; SQL NULL (and JSON null) come back as null. */
export type JsonDecoder = (value: unknown) => unknown;

/** A string column, or undefined for SQL NULL. */
function str(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

/** A required string column. */
function reqStr(value: unknown): string {
  return String(value);
}

/** A numeric column (pg BIGINT arrives as a string), or undefined for SQL NULL. */
function num(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

/** A required numeric column. */
function reqNum(value: unknown): number {
  return Number(value);
}

/** Optional JSON: JSON null and SQL NULL both mean "not set". */
function optJson(json: JsonDecoder, value: unknown): unknown {
  const decoded = json(value);
  return decoded === null ? undefined : decoded;
}

/** Drops keys whose value is undefined so records compare cleanly and serialize without noise. */
export function compact<T extends object>(record: T): T {
  for (const key of Object.keys(record) as (keyof T)[]) {
    if (record[key] === undefined) delete record[key];
  }
  return record;
}

/** A `changes` row as a ChangeRecord. */
export function toChange(row: Row, json: JsonDecoder): ChangeRecord {
  return compact<ChangeRecord>({
    id: reqStr(row.id),
    operation: reqStr(row.operation),
    request: json(row.request),
    preview: json(row.preview),
    requester: reqStr(row.requester),
    origin: compact({
      workspace: reqStr(row.workspace),
      channel: reqStr(row.channel),
      threadTs: str(row.thread_ts),
      messageTs: str(row.message_ts),
      releaseId: str(row.release_id),
    }),
    status: reqStr(row.status) as ChangeStatus,
    createdAt: reqNum(row.created_at),
    updatedAt: reqNum(row.updated_at),
    expiresAt: reqNum(row.expires_at),
    confirmedBy: str(row.confirmed_by),
    applyingOwner: str(row.applying_owner),
    applyingSince: num(row.applying_since),
    applyToken: str(row.apply_token),
    result: optJson(json, row.result),
    error: optJson(json, row.error),
    drawnStatus: str(row.drawn_status) as ChangeStatus | undefined,
    version: reqNum(row.version),
  });
}

/** An `approvals` row as an ApprovalRecord. */
export function toApproval(row: Row): ApprovalRecord {
  return compact<ApprovalRecord>({
    changeId: reqStr(row.change_id),
    userId: reqStr(row.user_id),
    decision: reqStr(row.decision) as ApprovalRecord['decision'],
    at: reqNum(row.at),
    comment: str(row.comment),
  });
}

/** An `audit` row as an AuditEntry. */
export function toAudit(row: Row, json: JsonDecoder): AuditEntry {
  return compact<AuditEntry>({
    id: num(row.id),
    at: reqNum(row.at),
    changeId: str(row.change_id),
    actor: reqStr(row.actor),
    workspace: str(row.workspace),
    channel: str(row.channel),
    action: reqStr(row.action),
    operation: str(row.operation),
    params: optJson(json, row.params),
    outcome: str(row.outcome),
    detail: optJson(json, row.detail),
  });
}

/** A `releases` row as a ReleaseRecord. */
export function toRelease(row: Row, json: JsonDecoder): ReleaseRecord {
  return compact<ReleaseRecord>({
    id: reqStr(row.id),
    workspace: reqStr(row.workspace),
    channel: reqStr(row.channel),
    messageTs: str(row.message_ts),
    title: reqStr(row.title),
    status: reqStr(row.status) as ReleaseRecord['status'],
    createdBy: reqStr(row.created_by),
    createdAt: reqNum(row.created_at),
    endedAt: num(row.ended_at),
    data: json(row.data),
    version: reqNum(row.version),
  });
}

/** A `tails` row as a TailRecord. */
export function toTail(row: Row, json: JsonDecoder): TailRecord {
  return compact<TailRecord>({
    id: reqStr(row.id),
    workspace: reqStr(row.workspace),
    channel: reqStr(row.channel),
    threadTs: str(row.thread_ts),
    messageTs: str(row.message_ts),
    env: reqStr(row.env),
    vessel: reqStr(row.vessel),
    container: str(row.container),
    releaseId: str(row.release_id),
    startedBy: reqStr(row.started_by),
    startedAt: reqNum(row.started_at),
    status: reqStr(row.status) as TailRecord['status'],
    stopReason: str(row.stop_reason),
    state: json(row.state),
    version: reqNum(row.version),
  });
}

/** A `leases` row as a Lease. */
export function toLease(row: Row): Lease {
  return { key: reqStr(row.key), owner: reqStr(row.owner), expiresAt: reqNum(row.expires_at) };
}
