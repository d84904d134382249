/**
 * Records and patches as (column, value) pairs, shared by both stores so they
 * write exactly the same columns. Each store only decides the placeholder
 * syntax and, for JSON columns, the cast (PostgreSQL casts the text to JSONB).
 */

import type {
  AuditEntry,
  ChangePatch,
  ChangeRecord,
  ReleasePatch,
  ReleaseRecord,
  TailPatch,
  TailRecord,
} from './types.js';

export interface ColumnValue {
  column: string;
  /** A string, number or null; JSON columns carry their JSON text. */
  value: string | number | null;
  json: boolean;
}

interface ColumnSpec {
  column: string;
  json?: boolean;
  /** NOT NULL columns ignore an explicit undefined instead of clearing. */
  required?: boolean;
}

/** JSON text for an opaque value; undefined (or anything JSON cannot hold) becomes SQL NULL. */
function encodeJson(value: unknown): string | null {
  return value === undefined ? null : (JSON.stringify(value) ?? null);
}

function scalar(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'number' ? value : String(value);
}

function col(column: string, value: unknown, json = false): ColumnValue {
  return { column, value: json ? encodeJson(value) : scalar(value), json };
}

/** The columns of a new `changes` row (version 1). */
export function changeInsert(c: Omit<ChangeRecord, 'version'>): ColumnValue[] {
  return [
    col('id', c.id),
    col('operation', c.operation),
    col('request', c.request, true),
    col('preview', c.preview, true),
    col('requester', c.requester),
    col('workspace', c.origin.workspace),
    col('channel', c.origin.channel),
    col('thread_ts', c.origin.threadTs),
    col('message_ts', c.origin.messageTs),
    col('release_id', c.origin.releaseId),
    col('status', c.status),
    col('created_at', c.createdAt),
    col('updated_at', c.updatedAt),
    col('expires_at', c.expiresAt),
    col('confirmed_by', c.confirmedBy),
    col('applying_owner', c.applyingOwner),
    col('applying_since', c.applyingSince),
    col('apply_token', c.applyToken),
    col('result', c.result, true),
    col('error', c.error, true),
    col('version', 1),
  ];
}

/** The columns of a new `audit` row (the id is assigned by the database). */
export function auditInsert(a: AuditEntry): ColumnValue[] {
  return [
    col('at', a.at),
    col('change_id', a.changeId),
    col('actor', a.actor),
    col('workspace', a.workspace),
    col('channel', a.channel),
    col('action', a.action),
    col('operation', a.operation),
    col('params', a.params, true),
    col('outcome', a.outcome),
    col('detail', a.detail, true),
  ];
}

/** The columns of a new `releases` row (version 1). */
export function releaseInsert(r: Omit<ReleaseRecord, 'version'>): ColumnValue[] {
  return [
    col('id', r.id),
    col('workspace', r.workspace),
    col('channel', r.channel),
    col('message_ts', r.messageTs),
    col('title', r.title),
    col('status', r.status),
    col('created_by', r.createdBy),
    col('created_at', r.createdAt),
    col('ended_at', r.endedAt),
    col('data', r.data, true),
    col('version', 1),
  ];
}

/** The columns of a new `tails` row (version 1). */
export function tailInsert(t: Omit<TailRecord, 'version'>): ColumnValue[] {
  return [
    col('id', t.id),
    col('workspace', t.workspace),
    col('channel', t.channel),
    col('thread_ts', t.threadTs),
    col('message_ts', t.messageTs),
    col('env', t.env),
    col('vessel', t.vessel),
    col('container', t.container),
    col('release_id', t.releaseId),
    col('started_by', t.startedBy),
    col('started_at', t.startedAt),
    col('status', t.status),
    col('stop_reason', t.stopReason),
    col('state', t.state, true),
    col('version', 1),
  ];
}

const CHANGE_PATCH: Record<keyof ChangePatch, ColumnSpec> = {
  confirmedBy: { column: 'confirmed_by' },
  applyingOwner: { column: 'applying_owner' },
  applyingSince: { column: 'applying_since' },
  applyToken: { column: 'apply_token' },
  result: { column: 'result', json: true },
  error: { column: 'error', json: true },
  preview: { column: 'preview', json: true },
  expiresAt: { column: 'expires_at', required: true },
};

const ORIGIN_PATCH: Record<string, ColumnSpec> = {
  workspace: { column: 'workspace', required: true },
  channel: { column: 'channel', required: true },
  threadTs: { column: 'thread_ts' },
  messageTs: { column: 'message_ts' },
  releaseId: { column: 'release_id' },
};

const RELEASE_PATCH: Record<keyof ReleasePatch, ColumnSpec> = {
  messageTs: { column: 'message_ts' },
  status: { column: 'status', required: true },
  endedAt: { column: 'ended_at' },
  data: { column: 'data', json: true },
};

const TAIL_PATCH: Record<keyof TailPatch, ColumnSpec> = {
  messageTs: { column: 'message_ts' },
  threadTs: { column: 'thread_ts' },
  status: { column: 'status', required: true },
  stopReason: { column: 'stop_reason' },
  state: { column: 'state', json: true },
};

/** Assignments for the keys present in `patch`; unknown keys are ignored so callers cannot reach other columns. */
function patchColumns(patch: object, specs: Record<string, ColumnSpec>): ColumnValue[] {
  const out: ColumnValue[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const spec = specs[key];
    if (!spec) continue;
    if (value === undefined && spec.required) continue;
    out.push(col(spec.column, value, spec.json));
  }
  return out;
}

/** Assignments for a transitionChange patch. */
export function changePatch(patch: ChangePatch): ColumnValue[] {
  return patchColumns(patch, CHANGE_PATCH);
}

/** Assignments for an updateChangeOrigin patch. */
export function originPatch(patch: object): ColumnValue[] {
  return patchColumns(patch, ORIGIN_PATCH);
}

/** Assignments for an updateRelease patch. */
export function releasePatch(patch: ReleasePatch): ColumnValue[] {
  return patchColumns(patch, RELEASE_PATCH);
}

/** Assignments for an updateTail patch. */
export function tailPatch(patch: TailPatch): ColumnValue[] {
  return patchColumns(patch, TAIL_PATCH);
}
