/**
 * Every table's columns, declared once. The row decoders (rows.ts), the
 * inserts and patches (columns.ts) are typed by these declarations, so a
 * column added here and forgotten there is a compile error; the migrations,
 * which are history and stay written out per dialect, are checked against
 * them by test/store/tables-match-migrations.test.ts on both databases.
 *
 * Why not a query builder (Kysely): its table interfaces would be one more
 * declaration beside the migrations, and every query would be rewritten for
 * the same guarantee; the stores' SQL is small and shared by both dialects.
 */
import { GUARD_STATES } from './guard-types.js';
import { CHANGE_STATUSES, FOLLOW_STATES } from './types.js';

/** What a column holds: text, an integer (epoch ms, counts), or JSON (TEXT in SQLite, JSONB in PostgreSQL). */
export type ColumnKind = 'text' | 'int' | 'json';

export interface ColumnDecl {
  kind: ColumnKind;
  /** SQL NULL allowed (read as undefined). JSON columns are always nullable: null is "not set". */
  nullable: boolean;
  /** For text columns with a CHECK list: the values allowed. */
  values?: readonly string[];
  /** For JSON columns: SQL NULL (or JSON null) reads as "not set" (undefined) rather than null. */
  nullIsUnset?: boolean;
}

const text = { kind: 'text', nullable: false } as const;
const optText = { kind: 'text', nullable: true } as const;
const int = { kind: 'int', nullable: false } as const;
const optInt = { kind: 'int', nullable: true } as const;
const json = { kind: 'json', nullable: true } as const;
const optJson = { kind: 'json', nullable: true, nullIsUnset: true } as const;
const oneOf = <const V extends readonly string[]>(values: V) =>
  ({ kind: 'text', nullable: false, values }) as const;
const optOneOf = <const V extends readonly string[]>(values: V) =>
  ({ kind: 'text', nullable: true, values }) as const;

export const TABLES = {
  changes: {
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
    status: oneOf(CHANGE_STATUSES),
    created_at: int,
    updated_at: int,
    expires_at: int,
    confirmed_by: optText,
    applying_owner: optText,
    applying_since: optInt,
    apply_token: optText,
    result: optJson,
    error: optJson,
    drawn_status: optOneOf(CHANGE_STATUSES),
    ask_ts: optText,
    reminded_at: optInt,
    expiry_told_at: optInt,
    undo: optJson,
    applied_at: optInt,
    rolled_back_by: optText,
    rolled_back_at: optInt,
    follow_state: optOneOf(FOLLOW_STATES),
    scheduled_at: optInt,
    version: int,
  },
  approvals: {
    change_id: text,
    user_id: text,
    decision: oneOf(['approve', 'reject']),
    at: int,
    comment: optText,
  },
  audit: {
    // Assigned by the database (AUTOINCREMENT / BIGSERIAL); never written by us.
    id: int,
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
  },
  releases: {
    id: text,
    workspace: text,
    channel: text,
    message_ts: optText,
    title: text,
    status: oneOf(['open', 'ended']),
    created_by: text,
    created_at: int,
    ended_at: optInt,
    data: json,
    version: int,
  },
  tails: {
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
    status: oneOf(['active', 'stopped']),
    stop_reason: optText,
    state: json,
    version: int,
  },
  leases: {
    key: text,
    owner: text,
    expires_at: int,
  },
  // Slack's rate limits shared by the replicas: a rate gate's theoretical arrival time per key.
  slack_budget: {
    key: text,
    tat: int,
  },
  // How many tails each replica has wanting slots of a gate, until the row expires.
  slack_budget_demand: {
    key: text,
    replica: text,
    consumers: int,
    expires_at: int,
  },
  // Watches (issue 29): which channel watches which environment.
  watch_subscriptions: {
    workspace: text,
    channel: text,
    env: text,
    created_by: text,
    created_at: int,
  },
  // One row per watched environment: when it was last listed, and a pause after an API error.
  watch_pollers: {
    env: text,
    last_poll_at: optInt,
    failures: int,
    paused_status: optInt,
    paused_at: optInt,
    resume_at: optInt,
    paused_reason: optText,
  },
  // What the poller saw wrong per object, kept so a replica taking over keeps the settle clock.
  watch_troubles: {
    env: text,
    object_key: text,
    kind: text,
    name: text,
    state: text,
    reason: optText,
    detail: optText,
    first_bad_at: int,
    last_bad_at: int,
    good_since: optInt,
  },
  // Where a rollout Harbormaster follows stood (`updated/total`) and since when.
  watch_progress: {
    env: text,
    object_key: text,
    mark: text,
    since: int,
  },
  // One alert per episode and channel; at most one open per object and channel.
  watch_alerts: {
    id: text,
    workspace: text,
    channel: text,
    env: text,
    object_key: text,
    kind: text,
    name: text,
    region: optText,
    state: text,
    reason: optText,
    detail: optText,
    first_bad_at: int,
    opened_at: int,
    message_ts: optText,
    post_claim: optText,
    post_claim_at: optInt,
    recovered_at: optInt,
    lasted_ms: optInt,
    drawn: oneOf(['none', 'open', 'recovered']),
    muted_until: optInt,
    muted_by: optText,
    fleets: optText,
  },
  // Freezes (issue 41): in force while ended_at is null and until_at (if any) is ahead.
  freezes: {
    id: text,
    env: text,
    created_by: text,
    created_at: int,
    until_at: optInt,
    reason: optText,
    workspace: text,
    channel: text,
    ended_at: optInt,
    ended_by: optText,
  },
  // Guards (issue 42): one per guarded change until its window ends; the lease is in the row.
  guards: {
    change_id: text,
    rule: text,
    within_ms: int,
    window_end: int,
    state: oneOf(GUARD_STATES),
    owner: optText,
    lease_until: optInt,
    trouble: optJson,
    touched: optJson,
    trigger_seen: optText,
    rollback_id: optText,
    reason: optText,
    created_at: int,
    ended_at: optInt,
  },
} as const satisfies Record<string, Record<string, ColumnDecl>>;

export type TableName = keyof typeof TABLES;

/** The column names of `T`. */
export type ColumnOf<T extends TableName> = keyof (typeof TABLES)[T] & string;

/** What a column of declaration `C` reads as, once decoded. */
type Decoded<C> = C extends { kind: 'json' }
  ? unknown
  :
      | (C extends { values: readonly (infer V)[] } ? V : C extends { kind: 'int' } ? number : string)
      | (C extends { nullable: true } ? undefined : never);

/** A decoded row of `T`: every declared column, typed by its declaration. */
export type RowOf<T extends TableName> = { [K in ColumnOf<T>]: Decoded<(typeof TABLES)[T][K]> };

/** The declaration of one column. */
export function columnDecl<T extends TableName>(table: T, column: ColumnOf<T>): ColumnDecl {
  return (TABLES[table] as Record<string, ColumnDecl>)[column] as ColumnDecl;
}
