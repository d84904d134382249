/**
 * Turns database rows (snake_case columns, identical in both schemas) into
 * records, each through a zod schema: a row that does not hold what its
 * record promises (a status outside the list, JSON text that does not parse,
 * a number that is not one) is refused with the table and column named,
 * never passed on by cast. The drivers differ only in how JSON and BIGINT
 * arrive: SQLite keeps JSON as TEXT while pg hands JSONB over parsed, and pg
 * returns BIGINT as a string (epoch ms fit a double, so Number() is exact).
 */

import { z } from 'zod';
import { BAD_ROW, StoreError } from './errors.js';
import type { Dialect } from './sql.js';
import {
  type ApprovalRecord,
  type AuditEntry,
  CHANGE_STATUSES,
  type ChangeRecord,
  type Lease,
  type ReleaseRecord,
  type TailRecord,
} from './types.js';

export type Row = Record<string, unknown>;

/** Decodes each table's rows into records (one per dialect: JSON arrives differently). */
export interface RowDecoder {
  change(row: unknown): ChangeRecord;
  approval(row: unknown): ApprovalRecord;
  audit(row: unknown): AuditEntry;
  release(row: unknown): ReleaseRecord;
  tail(row: unknown): TailRecord;
  lease(row: unknown): Lease;
}

/** A required text column. */
const text = z.string();
/** An optional text column: SQL NULL becomes undefined. */
const optText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
/** A required integer column (pg BIGINT arrives as a string). */
const int = z
  .union([z.number(), z.string().regex(/^-?\d+$/, 'expected digits')])
  .transform(Number)
  .pipe(z.number().int());
/** An optional integer column. */
const optInt = int.nullish().transform((v) => v ?? undefined);

/** SQLite's JSON: TEXT holding JSON, or SQL NULL (which reads as null, as from pg). */
const sqliteJson = z
  .string()
  .nullish()
  .transform((value, ctx): unknown => {
    if (value === null || value === undefined) return null;
    try {
      return JSON.parse(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `not JSON text (${(err as Error).message})` });
      return z.NEVER;
    }
  })
  .pipe(z.json());
/** PostgreSQL's JSONB, parsed by the driver; SQL NULL and JSON null both arrive as null. */
const postgresJson = z
  .json()
  .optional()
  .transform((v) => v ?? null);

type JsonColumn = typeof sqliteJson | typeof postgresJson;

/** Drops keys whose value is undefined so records compare cleanly and serialize without noise. */
export function compact<T extends object>(record: T): T {
  for (const key of Object.keys(record) as (keyof T)[]) {
    if (record[key] === undefined) delete record[key];
  }
  return record;
}

function schemas(json: JsonColumn) {
  /** Optional JSON: JSON null and SQL NULL both mean "not set". */
  const optJson = json.transform((v) => (v === null ? undefined : v));
  const status = z.enum(CHANGE_STATUSES);

  const change = z
    .object({
      id: text,
      operation: text,
      request: json,
      preview: json,
      requester: text,
      workspace: text,
      channel: text,
      thread_ts: optText,
      message_ts: optText,
      release_id: optText,
      status,
      created_at: int,
      updated_at: int,
      expires_at: int,
      confirmed_by: optText,
      applying_owner: optText,
      applying_since: optInt,
      apply_token: optText,
      result: optJson,
      error: optJson,
      drawn_status: status.nullish().transform((v) => v ?? undefined),
      version: int,
    })
    .transform((r) =>
      compact<ChangeRecord>({
        id: r.id,
        operation: r.operation,
        request: r.request,
        preview: r.preview,
        requester: r.requester,
        origin: compact({
          workspace: r.workspace,
          channel: r.channel,
          threadTs: r.thread_ts,
          messageTs: r.message_ts,
          releaseId: r.release_id,
        }),
        status: r.status,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        expiresAt: r.expires_at,
        confirmedBy: r.confirmed_by,
        applyingOwner: r.applying_owner,
        applyingSince: r.applying_since,
        applyToken: r.apply_token,
        result: r.result,
        error: r.error,
        drawnStatus: r.drawn_status,
        version: r.version,
      }),
    );

  const approval = z
    .object({
      change_id: text,
      user_id: text,
      decision: z.enum(['approve', 'reject']),
      at: int,
      comment: optText,
    })
    .transform((r) =>
      compact<ApprovalRecord>({
        changeId: r.change_id,
        userId: r.user_id,
        decision: r.decision,
        at: r.at,
        comment: r.comment,
      }),
    );

  const audit = z
    .object({
      id: optInt,
      at: int,
      change_id: optText,
      actor: text,
      workspace: optText,
      channel: optText,
      action: text,
      operation: optText,
      params: optJson,
      outcome: optText,
      detail: optJson,
    })
    .transform((r) =>
      compact<AuditEntry>({
        id: r.id,
        at: r.at,
        changeId: r.change_id,
        actor: r.actor,
        workspace: r.workspace,
        channel: r.channel,
        action: r.action,
        operation: r.operation,
        params: r.params,
        outcome: r.outcome,
        detail: r.detail,
      }),
    );

  const release = z
    .object({
      id: text,
      workspace: text,
      channel: text,
      message_ts: optText,
      title: text,
      status: z.enum(['open', 'ended']),
      created_by: text,
      created_at: int,
      ended_at: optInt,
      data: json,
      version: int,
    })
    .transform((r) =>
      compact<ReleaseRecord>({
        id: r.id,
        workspace: r.workspace,
        channel: r.channel,
        messageTs: r.message_ts,
        title: r.title,
        status: r.status,
        createdBy: r.created_by,
        createdAt: r.created_at,
        endedAt: r.ended_at,
        data: r.data,
        version: r.version,
      }),
    );

  const tail = z
    .object({
      id: text,
      workspace: text,
      channel: text,
      thread_ts: optText,
      message_ts: optText,
      env: text,
      vessel: text,
      container: optText,
      release_id: optText,
      started_by: text,
      started_at: int,
      status: z.enum(['active', 'stopped']),
      stop_reason: optText,
      state: json,
      version: int,
    })
    .transform((r) =>
      compact<TailRecord>({
        id: r.id,
        workspace: r.workspace,
        channel: r.channel,
        threadTs: r.thread_ts,
        messageTs: r.message_ts,
        env: r.env,
        vessel: r.vessel,
        container: r.container,
        releaseId: r.release_id,
        startedBy: r.started_by,
        startedAt: r.started_at,
        status: r.status,
        stopReason: r.stop_reason,
        state: r.state,
        version: r.version,
      }),
    );

  const lease = z
    .object({ key: text, owner: text, expires_at: int })
    .transform((r): Lease => ({ key: r.key, owner: r.owner, expiresAt: r.expires_at }));

  return { change, approval, audit, release, tail, lease };
}

/** Parses `row` with `schema`, or throws a StoreError naming the table and what did not fit. */
function decoder<T>(table: string, schema: z.ZodType<T>): (row: unknown) => T {
  return (row) => {
    const parsed = schema.safeParse(row);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`);
    throw new StoreError(`a ${table} row does not hold what it should: ${problems.join('; ')}`, BAD_ROW, {
      cause: parsed.error,
    });
  };
}

function rowDecoderFor(json: JsonColumn): RowDecoder {
  const s = schemas(json);
  return {
    change: decoder('changes', s.change),
    approval: decoder('approvals', s.approval),
    audit: decoder('audit', s.audit),
    release: decoder('releases', s.release),
    tail: decoder('tails', s.tail),
    lease: decoder('leases', s.lease),
  };
}

const DECODERS: Record<Dialect, RowDecoder> = {
  sqlite: rowDecoderFor(sqliteJson),
  postgres: rowDecoderFor(postgresJson),
};

/** The row decoder for a dialect's drivers. */
export function rowDecoder(dialect: Dialect): RowDecoder {
  return DECODERS[dialect];
}
