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
import { type ColumnDecl, type RowOf, TABLES, type TableName } from './tables.js';
import type { ApprovalRecord, AuditEntry, ChangeRecord, Lease, ReleaseRecord, TailRecord } from './types.js';

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

/** A text column (nullable ones read SQL NULL as undefined, in columnSchema). */
const text = z.string();
/** An integer column (pg BIGINT arrives as a string). */
const int = z
  .union([z.number(), z.string().regex(/^-?\d+$/, 'expected digits')])
  .transform(Number)
  .pipe(z.number().int());

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

/** Each dialect's JSON codec, for parts that declare their own decoders (watch-rows.ts). */
export const JSON_CODECS: Record<Dialect, JsonColumn> = { sqlite: sqliteJson, postgres: postgresJson };

/** Drops keys whose value is undefined so records compare cleanly and serialize without noise. */
export function compact<T extends object>(record: T): T {
  for (const key of Object.keys(record) as (keyof T)[]) {
    if (record[key] === undefined) delete record[key];
  }
  return record;
}

/** The zod schema of one declared column, reading JSON with `json` (the dialect's codec). */
function columnSchema(decl: ColumnDecl, json: JsonColumn): z.ZodType {
  if (decl.kind === 'json')
    return decl.nullIsUnset ? json.transform((v) => (v === null ? undefined : v)) : json;
  const base = decl.kind === 'int' ? int : decl.values ? z.enum(decl.values as [string, ...string[]]) : text;
  return decl.nullable ? base.nullish().transform((v) => v ?? undefined) : base;
}

/** A row of `table` as its declaration (tables.ts) says, JSON read with the dialect's codec. */
export function rowSchema<T extends TableName>(table: T, json: JsonColumn): z.ZodType<RowOf<T>> {
  const shape = Object.fromEntries(
    Object.entries(TABLES[table] as Record<string, ColumnDecl>).map(([column, decl]) => [
      column,
      columnSchema(decl, json),
    ]),
  );
  // Built from the same declaration RowOf<T> is computed from: the one place the two types meet.
  return z.object(shape) as unknown as z.ZodType<RowOf<T>>;
}

function schemas(json: JsonColumn) {
  const change = rowSchema('changes', json).transform((r) =>
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
        askTs: r.ask_ts,
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
      remindedAt: r.reminded_at,
      expiryToldAt: r.expiry_told_at,
      undo: r.undo,
      appliedAt: r.applied_at,
      rolledBackBy: r.rolled_back_by,
      rolledBackAt: r.rolled_back_at,
      followState: r.follow_state,
      scheduledAt: r.scheduled_at,
      version: r.version,
    }),
  );

  const approval = rowSchema('approvals', json).transform((r) =>
    compact<ApprovalRecord>({
      changeId: r.change_id,
      userId: r.user_id,
      decision: r.decision,
      at: r.at,
      comment: r.comment,
    }),
  );

  const audit = rowSchema('audit', json).transform((r) =>
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

  const release = rowSchema('releases', json).transform((r) =>
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

  const tail = rowSchema('tails', json).transform((r) =>
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

  const lease = rowSchema('leases', json).transform(
    (r): Lease => ({ key: r.key, owner: r.owner, expiresAt: r.expires_at }),
  );

  return { change, approval, audit, release, tail, lease };
}

/** Parses `row` with `schema`, or throws a StoreError naming the table and what did not fit. */
export function decoder<T>(table: string, schema: z.ZodType<T>): (row: unknown) => T {
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
