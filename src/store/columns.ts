/**
 * Records and patches as (column, value) pairs, shared by both stores so they
 * write exactly the same columns. Which columns exist, and which hold JSON,
 * comes from their one declaration (tables.ts): an insert must name every
 * declared column but those it leaves to the database, or it does not
 * compile. Each store only decides the placeholder syntax and, for JSON
 * columns, the cast (PostgreSQL casts the text to JSONB).
 */
import { type ColumnOf, columnDecl, type TableName } from './tables.js';

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

/** JSON text for an opaque value; undefined (or anything JSON cannot hold) becomes SQL NULL. */
function encodeJson(value: unknown): string | null {
  return value === undefined ? null : (JSON.stringify(value) ?? null);
}

function scalar(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'number' ? value : String(value);
}

/** One declared column's value, encoded as its declaration says (JSON text for JSON columns). */
function col<T extends TableName>(table: T, column: ColumnOf<T>, value: unknown): ColumnValue {
  const json = columnDecl(table, column).kind === 'json';
  return { column, value: json ? encodeJson(value) : scalar(value), json };
}

/** A whole row of `table`: `values` names every declared column except `omitted` (left to the database). */
function insertRow<T extends TableName, O extends ColumnOf<T> = never>(
  table: T,
  values: Record<Exclude<ColumnOf<T>, O>, unknown>,
): ColumnValue[] {
  return Object.entries(values).map(([column, value]) => col(table, column as ColumnOf<T>, value));
}

/** The columns of a new `changes` row (version 1). */
export function changeInsert(c: Omit<ChangeRecord, 'version'>): ColumnValue[] {
  return insertRow<
    'changes',
    | 'drawn_status'
    | 'ask_ts'
    | 'reminded_at'
    | 'expiry_told_at'
    | 'undo'
    | 'applied_at'
    | 'rolled_back_by'
    | 'rolled_back_at'
    | 'follow_state'
  >('changes', {
    id: c.id,
    operation: c.operation,
    request: c.request,
    preview: c.preview,
    requester: c.requester,
    workspace: c.origin.workspace,
    channel: c.origin.channel,
    thread_ts: c.origin.threadTs,
    message_ts: c.origin.messageTs,
    release_id: c.origin.releaseId,
    status: c.status,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    expires_at: c.expiresAt,
    confirmed_by: c.confirmedBy,
    applying_owner: c.applyingOwner,
    applying_since: c.applyingSince,
    apply_token: c.applyToken,
    result: c.result,
    error: c.error,
    scheduled_at: c.scheduledAt,
    version: 1,
  });
}

/** The columns of a new `audit` row (the id is assigned by the database). */
export function auditInsert(a: AuditEntry): ColumnValue[] {
  return insertRow<'audit', 'id'>('audit', {
    at: a.at,
    change_id: a.changeId,
    actor: a.actor,
    workspace: a.workspace,
    channel: a.channel,
    action: a.action,
    operation: a.operation,
    params: a.params,
    outcome: a.outcome,
    detail: a.detail,
  });
}

/** The columns of a new `releases` row (version 1). */
export function releaseInsert(r: Omit<ReleaseRecord, 'version'>): ColumnValue[] {
  return insertRow('releases', {
    id: r.id,
    workspace: r.workspace,
    channel: r.channel,
    message_ts: r.messageTs,
    title: r.title,
    status: r.status,
    created_by: r.createdBy,
    created_at: r.createdAt,
    ended_at: r.endedAt,
    data: r.data,
    version: 1,
  });
}

/** The columns of a new `tails` row (version 1). */
export function tailInsert(t: Omit<TailRecord, 'version'>): ColumnValue[] {
  return insertRow('tails', {
    id: t.id,
    workspace: t.workspace,
    channel: t.channel,
    thread_ts: t.threadTs,
    message_ts: t.messageTs,
    env: t.env,
    vessel: t.vessel,
    container: t.container,
    release_id: t.releaseId,
    started_by: t.startedBy,
    started_at: t.startedAt,
    status: t.status,
    stop_reason: t.stopReason,
    state: t.state,
    version: 1,
  });
}

const CHANGE_PATCH: Record<keyof ChangePatch, ColumnOf<'changes'>> = {
  confirmedBy: 'confirmed_by',
  applyingOwner: 'applying_owner',
  applyingSince: 'applying_since',
  applyToken: 'apply_token',
  result: 'result',
  error: 'error',
  preview: 'preview',
  expiresAt: 'expires_at',
  undo: 'undo',
  appliedAt: 'applied_at',
  followState: 'follow_state',
};

const ORIGIN_PATCH: Record<string, ColumnOf<'changes'>> = {
  workspace: 'workspace',
  channel: 'channel',
  threadTs: 'thread_ts',
  messageTs: 'message_ts',
  releaseId: 'release_id',
  askTs: 'ask_ts',
};

const RELEASE_PATCH: Record<keyof ReleasePatch, ColumnOf<'releases'>> = {
  messageTs: 'message_ts',
  status: 'status',
  endedAt: 'ended_at',
  data: 'data',
};

const TAIL_PATCH: Record<keyof TailPatch, ColumnOf<'tails'>> = {
  messageTs: 'message_ts',
  threadTs: 'thread_ts',
  status: 'status',
  stopReason: 'stop_reason',
  state: 'state',
};

/**
 * Assignments for the keys present in `patch`; unknown keys are ignored so
 * callers cannot reach other columns, and NOT NULL columns ignore an explicit
 * undefined instead of clearing.
 */
function patchColumns<T extends TableName>(
  table: T,
  patch: object,
  columns: Record<string, ColumnOf<T>>,
): ColumnValue[] {
  const out: ColumnValue[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const column = columns[key];
    if (!column) continue;
    if (value === undefined && !columnDecl(table, column).nullable) continue;
    out.push(col(table, column, value));
  }
  return out;
}

/** Assignments for a transitionChange patch. */
export function changePatch(patch: ChangePatch): ColumnValue[] {
  return patchColumns('changes', patch, CHANGE_PATCH);
}

/** Assignments for an updateChangeOrigin patch. */
export function originPatch(patch: object): ColumnValue[] {
  return patchColumns('changes', patch, ORIGIN_PATCH);
}

/** Assignments for an updateRelease patch. */
export function releasePatch(patch: ReleasePatch): ColumnValue[] {
  return patchColumns('releases', patch, RELEASE_PATCH);
}

/** Assignments for an updateTail patch. */
export function tailPatch(patch: TailPatch): ColumnValue[] {
  return patchColumns('tails', patch, TAIL_PATCH);
}
