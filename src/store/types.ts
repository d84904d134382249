/**
 * The persistence contract shared by the SQLite and PostgreSQL stores. The
 * store knows nothing of operations or Slack: requests, previews, results,
 * release data and tail state are opaque JSON. All times are epoch
 * milliseconds supplied by the caller (from an injected clock).
 */

import type { Logger } from '../runtime/logger.js';
import type { FreezeStore } from './freeze-types.js';
import type { GuardStore } from './guard-types.js';
import type { WatchStore } from './watch-types.js';

export type ChangeStatus =
  | 'pending'
  | 'awaiting_approval'
  | 'approved'
  | 'applying'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'expired';

/** Every status, in lifecycle order (the database CHECK constraints use the same list). */
export const CHANGE_STATUSES: readonly ChangeStatus[] = [
  'pending',
  'awaiting_approval',
  'approved',
  'applying',
  'succeeded',
  'failed',
  'cancelled',
  'expired',
];

/** An applied change's follow-up: still owed (`due`) or run to its end (`over`). */
export type FollowState = 'due' | 'over';
export const FOLLOW_STATES: readonly FollowState[] = ['due', 'over'];

/** Statuses that `expireChanges` moves to 'expired' once `expiresAt` has passed. */
export const EXPIRABLE_STATUSES: readonly ChangeStatus[] = ['pending', 'awaiting_approval', 'approved'];

export interface ChangeOrigin {
  workspace: string;
  channel: string;
  threadTs?: string;
  releaseId?: string;
}

/** The notices a change gets once: approvers reminded before it expires, the requester told it expired. */
export type ChangeNotice = 'reminder' | 'expiry';

export interface ChangeRecord {
  id: string;
  operation: string;
  request: unknown;
  preview: unknown;
  requester: string;
  origin: ChangeOrigin;
  status: ChangeStatus;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  /** Who triggered the apply. */
  confirmedBy?: string;
  /** Process/replica id holding the apply. */
  applyingOwner?: string;
  applyingSince?: number;
  /** Idempotency key for the apply (e.g. the promotion UUID), set at create or claim. */
  applyToken?: string;
  result?: unknown;
  error?: unknown;
  /** When the approvers were reminded (claimed by `claimNotice`). */
  remindedAt?: number;
  /** When the requester was told the change expired (claimed by `claimNotice`). */
  expiryToldAt?: number;
  /** What the change's inverse needs, recorded when it applied (opaque to the store). */
  undo?: unknown;
  /** When the change applied (the rollback window counts from here). */
  appliedAt?: number;
  /** The rollback change that claimed this change (`claimRollback`): one ever writes. */
  rolledBackBy?: string;
  /** When that rollback claimed it. */
  rolledBackAt?: number;
  /**
   * Whether the applied change's follow-up still owes its end (`due`, set when the apply is
   * recorded) or ran to it (`over`, set by `markFollowedUp`, which is bookkeeping: version and
   * updatedAt stay). Unset for operations without a follow-up (changes/follow-due.ts).
   */
  followState?: FollowState;
  /**
   * When a scheduled change applies (`--at`, issue 41); unset for a change applied at its click.
   * Set at request and never changed: the scheduler applies it (approved) once this has come.
   */
  scheduledAt?: number;
  /** Incremented on every update. */
  version: number;
}

export interface ApprovalRecord {
  changeId: string;
  userId: string;
  decision: 'approve' | 'reject';
  at: number;
  comment?: string;
}

/** One append-only audit line; the database refuses UPDATE and DELETE of these rows. */
export interface AuditEntry {
  id?: number;
  at: number;
  changeId?: string;
  actor: string;
  workspace?: string;
  channel?: string;
  /** 'request' | 'confirm' | 'approve' | 'reject' | 'cancel' | 'expire' | 'api_call' | 'apply' | 'recover' | ... */
  action: string;
  operation?: string;
  params?: unknown;
  outcome?: string;
  detail?: unknown;
}

export interface ReleaseRecord {
  id: string;
  workspace: string;
  channel: string;
  messageTs?: string;
  title: string;
  status: 'open' | 'ended';
  createdBy: string;
  createdAt: number;
  endedAt?: number;
  data: unknown;
  version: number;
}

export interface TailRecord {
  id: string;
  workspace: string;
  channel: string;
  threadTs?: string;
  messageTs?: string;
  env: string;
  vessel: string;
  container?: string;
  releaseId?: string;
  startedBy: string;
  startedAt: number;
  status: 'active' | 'stopped';
  stopReason?: string;
  state: unknown;
  version: number;
}

export interface Lease {
  key: string;
  owner: string;
  expiresAt: number;
}

/**
 * Fields `transitionChange` may set alongside the status. A key that is present
 * with the value `undefined` clears the field (e.g. `applyingOwner` after a
 * recovery); absent keys are left alone.
 */
export type ChangePatch = Partial<
  Pick<
    ChangeRecord,
    | 'confirmedBy'
    | 'applyingOwner'
    | 'applyingSince'
    | 'applyToken'
    | 'result'
    | 'error'
    | 'preview'
    | 'expiresAt'
    | 'undo'
    | 'appliedAt'
    | 'followState'
  >
>;

/** Fields `updateRelease` may set (a present key with `undefined` clears an optional field). */
export type ReleasePatch = Partial<Pick<ReleaseRecord, 'messageTs' | 'status' | 'endedAt' | 'data'>>;

/** Fields `updateTail` may set (a present key with `undefined` clears an optional field). */
export type TailPatch = Partial<
  Pick<TailRecord, 'messageTs' | 'threadTs' | 'status' | 'stopReason' | 'state'>
>;

export interface ChangeFilter {
  /** Only these changes (one read for a list of ids; an empty list matches nothing). */
  ids?: readonly string[];
  status?: readonly ChangeStatus[];
  requester?: string;
  releaseId?: string;
  /** Only changes created strictly after this time. */
  createdAfter?: number;
  /** Only changes applied strictly after this time (never-applied ones are left out). */
  appliedAfter?: number;
  /** Only changes whose follow-up is still due (ChangeRecord.followState). */
  followDue?: boolean;
  /** Only scheduled changes (`scheduledAt` set); with `dueBy`, only those whose time is at or before it. */
  scheduled?: boolean;
  dueBy?: number;
  /** Only changes whose `notice` has not been claimed yet. */
  unnoticed?: ChangeNotice;
  limit?: number;
}

export interface AuditFilter {
  changeId?: string;
  /** Inclusive lower bound on `at`. */
  from?: number;
  /** Inclusive upper bound on `at`. */
  to?: number;
  actor?: string;
  /** Only these actions ('apply', 'reject', ...). */
  actions?: readonly string[];
  /** Only entries with an id below this one (paging back through the log). */
  beforeId?: number;
  /** Newest written first (id descending) instead of oldest first by time. */
  newestFirst?: boolean;
  limit?: number;
}

export interface ReleaseFilter {
  status?: 'open' | 'ended';
  workspace?: string;
}

export interface TailFilter {
  status?: 'active' | 'stopped';
  releaseId?: string;
  workspace?: string;
}

export interface TransitionOptions {
  /** Becomes `updatedAt`; when omitted, `updatedAt` is left as it was. */
  now: number;
  expectVersion?: number;
}

/** Lifecycle and health of the database behind every part (wiring and /healthz). */
interface StoreHealth {
  readonly kind: 'sqlite' | 'postgres';
  /** Creates/updates the schema; safe when several processes start at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the store answers a trivial query and takes a write; rejects when it cannot. */
  ping(): Promise<void>;
}

/** Changes and their lifecycle: one row per change, moved between statuses atomically. */
export interface ChangeStore {
  /** Inserts a change with version 1; rejects when the id already exists. */
  createChange(change: Omit<ChangeRecord, 'version'>): Promise<ChangeRecord>;
  getChange(id: string): Promise<ChangeRecord | undefined>;
  /** Atomic conditional update: applies `patch` and sets `to` only if the current status is in `from`
   *  (and, when given, version === expectVersion). Returns the updated record, or undefined when the
   *  condition did not hold (the caller then re-reads to explain why). Exactly one of N concurrent
   *  callers with the same `from` wins. */
  transitionChange(
    id: string,
    from: readonly ChangeStatus[],
    to: ChangeStatus,
    patch?: ChangePatch,
    opts?: TransitionOptions,
  ): Promise<ChangeRecord | undefined>;
  /** Changes matching every given filter, oldest first (createdAt, then id). */
  listChanges(filter: ChangeFilter): Promise<ChangeRecord[]>;
  /** Marks a due follow-up over (bookkeeping: version and updatedAt stay); a no-op otherwise. */
  markFollowedUp(id: string): Promise<void>;
  /**
   * Moves every change in pending/awaiting_approval/approved whose expiresAt <= now to 'expired'; returns them.
   * A scheduled change once approved (or confirmed) is left to the scheduler, which ends it at its time.
   */
  expireChanges(now: number): Promise<ChangeRecord[]>;
  /**
   * Claims `notice` for the change, at `now`, while its status is one of `statuses`:
   * a conditional update that one of N concurrent callers (on any replica) wins.
   * Returns the record to the winner, undefined to everyone else.
   */
  claimNotice(
    id: string,
    notice: ChangeNotice,
    statuses: readonly ChangeStatus[],
    now: number,
  ): Promise<ChangeRecord | undefined>;
  /** Gives a claimed notice back (its message could not be posted), so a later pass sends it. */
  releaseNotice(id: string, notice: ChangeNotice): Promise<void>;
  /**
   * Claims succeeded change `id` for rollback change `by`, at `now`: a conditional
   * update that one of N concurrent callers (on any replica) wins; repeating it
   * with the same `by` wins again. Returns the record to the winner, undefined
   * when another rollback holds it (re-read to say which) or it is not succeeded.
   */
  claimRollback(id: string, by: string, now: number): Promise<ChangeRecord | undefined>;
  /** Gives a claim back (its rollback wrote nothing), when `by` still holds it. */
  releaseRollback(id: string, by: string): Promise<void>;
}

/** Approvals: one row per (changeId, userId); a second approval by the same user returns false. */
export interface ApprovalStore {
  addApproval(approval: ApprovalRecord): Promise<boolean>;
  /** Approvals of a change, in the order they were given (at, then userId). */
  listApprovals(changeId: string): Promise<ApprovalRecord[]>;
  /**
   * Approvals of several changes in one query: every id maps to its approvals in the
   * order they were given ([] for a change nobody approved yet).
   */
  listApprovalsFor(changeIds: readonly string[]): Promise<Map<string, ApprovalRecord[]>>;
}

/** The audit log: append-only; no update or delete methods exist. */
export interface AuditStore {
  /** Appends an entry and returns it with its id. */
  appendAudit(entry: AuditEntry): Promise<AuditEntry>;
  /** Entries matching every given filter, ordered by at, id (by id descending with newestFirst). */
  queryAudit(filter: AuditFilter): Promise<AuditEntry[]>;
}

/** Release threads. */
export interface ReleaseStore {
  createRelease(r: Omit<ReleaseRecord, 'version'>): Promise<ReleaseRecord>;
  getRelease(id: string): Promise<ReleaseRecord | undefined>;
  findReleaseByMessage(channel: string, messageTs: string): Promise<ReleaseRecord | undefined>;
  /** The most recently created open release with that title in that channel. */
  findOpenReleaseByTitle(
    workspace: string,
    channel: string,
    title: string,
  ): Promise<ReleaseRecord | undefined>;
  /** Applies the patch (only if version === expectVersion, when given); undefined when missing or stale. */
  updateRelease(id: string, patch: ReleasePatch, expectVersion?: number): Promise<ReleaseRecord | undefined>;
  /** Releases matching the filter, oldest first. */
  listReleases(filter: ReleaseFilter): Promise<ReleaseRecord[]>;
}

/** Log tails. */
export interface TailStore {
  createTail(t: Omit<TailRecord, 'version'>): Promise<TailRecord>;
  getTail(id: string): Promise<TailRecord | undefined>;
  /** Applies the patch (only if version === expectVersion, when given); undefined when missing or stale. */
  updateTail(id: string, patch: TailPatch, expectVersion?: number): Promise<TailRecord | undefined>;
  /** Tails matching the filter, oldest first. */
  listTails(filter: TailFilter): Promise<TailRecord[]>;
}

/** Leases with expiry (tail ownership, apply and recovery locks). */
export interface LeaseStore {
  /** Takes the lease if free, expired, or already ours; returns true if we hold it now. */
  acquireLease(key: string, owner: string, ttlMs: number, now: number): Promise<boolean>;
  /** Extends our lease; false if we lost it. */
  renewLease(key: string, owner: string, ttlMs: number, now: number): Promise<boolean>;
  /** Drops the lease if we hold it; a no-op otherwise. */
  releaseLease(key: string, owner: string): Promise<void>;
  /** The lease row as stored (it may already be expired: compare `expiresAt` with now). */
  getLease(key: string): Promise<Lease | undefined>;
}

/** One call's claim on a shared rate gate: its key, the gate's pace and how deep into the burst this caller may go. */
export interface SlotRule {
  /** The gate, e.g. `T123:chat.update` or `T123:chat.postMessage:C456`. */
  key: string;
  /** Average ms between calls (an integer). */
  intervalMs: number;
  /** How far ahead of now the gate may already be booked for this caller to still get a slot (ms, integer). */
  toleranceMs: number;
}

/** Whether a slot was taken; when not, the earliest time it could be (for this caller's tolerance). */
export type SlotAnswer = { taken: true } | { taken: false; openAt: number };

/** What every replica has told a gate about its demand, live rows only. */
export interface DemandTotals {
  /** Consumers (tails) wanting slots, summed over the replicas. */
  consumers: number;
  /** Replicas with a live row (including the caller). */
  replicas: number;
}

/**
 * Slack's rate limits, shared by every replica on the store (issue 22.1): one
 * rate gate per key, a "generic cell rate algorithm" kept as a single number
 * (the theoretical arrival time, TAT) and moved by one conditional statement,
 * so any number of replicas together never exceed what one gate allows.
 */
export interface SlackBudgetStore {
  /** Takes one slot at `now` if the gate is booked no further than `now + toleranceMs`; else when it would be. */
  takeSlot(rule: SlotRule, now: number): Promise<SlotAnswer>;
  /** Gives back a slot taken moments ago (its call was not made). */
  returnSlot(key: string, intervalMs: number): Promise<void>;
  /** Books gate `key` until at least `tat` (a 429: nobody calls before it). */
  holdSlots(key: string, tat: number): Promise<void>;
  /** Records that `replica` has `consumers` wanting slots of `key` until `now + ttlMs`; the live totals. */
  reportDemand(
    key: string,
    replica: string,
    consumers: number,
    ttlMs: number,
    now: number,
  ): Promise<DemandTotals>;
}

/** Request keys (replay protection). */
export interface RequestKeyStore {
  /**
   * Records that a request with `key` was seen, for `ttlMs` from `now`. True the
   * first time; false while the key is remembered (a replay, on any replica).
   */
  rememberRequest(key: string, ttlMs: number, now: number): Promise<boolean>;
}

/** The views (modals) the bot opened: a submission of any other is a forgery. */
export interface ViewStore {
  /** Records that the bot opened or updated view `viewId`, now showing `hash`, for `ttlMs` from `now`. */
  rememberView(viewId: string, hash: string, ttlMs: number, now: number): Promise<void>;
  /** The latest hash of view `viewId` when the bot opened it and it has not expired (on any replica); else undefined. */
  openedViewHash(viewId: string, now: number): Promise<string | undefined>;
}

export interface HomeViewerStore {
  /** Records that `user` of workspace `team` opened their Home tab at `now`; they count as looking for `ttlMs`. */
  noteHomeOpened(team: string, user: string, ttlMs: number, now: number): Promise<void>;
  /** Who in `team` opened their Home tab within their window (on any replica), by user id. */
  homeViewers(team: string, now: number): Promise<string[]>;
}

/** Where a change's Slack message is and what it shows (Slack's own table, not the change's). */
export interface ChangeMessageRecord {
  changeId: string;
  channel: string;
  messageTs?: string;
  /** The thread reply that asked the approvers; marked answered when the change moves on. */
  askTs?: string;
  /** The status the message last showed. */
  drawnStatus?: ChangeStatus;
}

/** Slack's drawing state of change messages (owned by src/slack/change-messages). */
export interface ChangeMessageStore {
  /** Records where the change's message was posted. */
  placeChangeMessage(changeId: string, channel: string, messageTs: string): Promise<void>;
  /** Records the thread reply that asked the change's approvers. */
  noteAsk(changeId: string, channel: string, askTs: string): Promise<void>;
  /** Records that the change's message now shows `status`. */
  markMessageDrawn(changeId: string, status: ChangeStatus): Promise<void>;
  /** The messages of these changes (those without one are absent). */
  changeMessages(changeIds: readonly string[]): Promise<Map<string, ChangeMessageRecord>>;
  /** Changes in one of `statuses` whose posted message does not show their status yet, oldest first. */
  undrawnChanges(statuses: readonly ChangeStatus[], limit: number): Promise<ChangeRecord[]>;
}

/** One event for the outbox: what the domain tells, as data (opaque to the store). */
export interface OutboxEntry {
  /** Which bus it is for (e.g. `change`). */
  topic: string;
  at: number;
  /** The replica that published it. */
  publisher: string;
  /** The publisher delivered it to its own subscribers: the other replicas leave it alone. */
  toldHere: boolean;
  payload: unknown;
}

/** An outbox row as read: the entry and its place in the order every replica reads in. */
export interface OutboxRow extends OutboxEntry {
  seq: number;
}

/**
 * The outbox (issue 39): the domain's events as rows, written in the same
 * transaction as what they tell of, read by every replica after its cursor.
 */
export interface OutboxStore {
  /** Appends an event; returns its seq (PostgreSQL also wakes the readers at commit). */
  appendOutbox(entry: OutboxEntry): Promise<number>;
  /** Up to `limit` rows after `afterSeq`, in seq order. */
  readOutbox(afterSeq: number, limit: number): Promise<OutboxRow[]>;
  /** The newest seq (0 when none): where a reader starting now begins. */
  lastOutboxSeq(): Promise<number>;
  /** Claims row `seq` for `subscriber` (one of N replicas asking wins); kept for `ttlMs`. */
  claimOutbox(subscriber: string, seq: number, ttlMs: number, now: number): Promise<boolean>;
  /** Deletes rows written before `before` and claims lapsed by `now`; returns the rows deleted. */
  pruneOutbox(before: number, now: number): Promise<number>;
}

/** What a transaction may write: a change and the events telling of it commit together or not at all. */
/** What commits together: a change, the outbox rows telling of it, and the guard an apply starts. */
export type TransactionStore = ChangeStore &
  Pick<ApprovalStore, 'listApprovalsFor'> &
  OutboxStore &
  Pick<GuardStore, 'createGuard'>;

/** Writes that commit together (the transactional outbox). */
export interface AtomicStore {
  /**
   * Runs `work` in one transaction: its writes (a change, the outbox rows
   * telling of it) commit together, or none does when it throws.
   */
  atomically<T>(work: (tx: TransactionStore) => Promise<T>): Promise<T>;
  /**
   * Calls `wake` when another connection appends to the outbox (PostgreSQL's
   * LISTEN); resolves to the function that stops listening. Absent where the
   * store cannot tell (SQLite: readers poll).
   */
  listenOutbox?(wake: () => void): Promise<() => Promise<void>>;
}

/**
 * Every part on one database, as start-up wires it. Flows take the parts they
 * use (a `ChangeStore & AuditStore`, a `TailStore`), not the whole.
 */
export interface Store
  extends StoreHealth,
    ChangeStore,
    ApprovalStore,
    AuditStore,
    ReleaseStore,
    TailStore,
    LeaseStore,
    RequestKeyStore,
    ViewStore,
    HomeViewerStore,
    SlackBudgetStore,
    WatchStore,
    FreezeStore,
    GuardStore,
    OutboxStore,
    AtomicStore,
    ChangeMessageStore {}

export interface OpenStoreOptions {
  /** A postgres:// URL selects PostgreSQL; without it the embedded SQLite store is used. */
  databaseUrl?: string;
  /** SQLite directory (created if missing), or ':memory:' for tests. Default './data'. */
  dataDir?: string;
  /** PostgreSQL schema to use (created if missing); default: the server's search_path. */
  schema?: string;
  /** PostgreSQL connect and statement timeout (default 10 s). */
  timeoutMs?: number;
  /** PostgreSQL `application_name` of the pool's connections: the replica id. */
  applicationName?: string;
  logger?: Logger;
}
