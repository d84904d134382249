/**
 * Every Store method written once as SQL both SQLite and PostgreSQL accept;
 * the subclasses only run statements and migrate. Each write is a single
 * statement with RETURNING, so a conditional update is atomic in both
 * databases: the row comes back only when the WHERE held at write time.
 */

import { randomUUID } from 'node:crypto';
import {
  auditInsert,
  type ColumnValue,
  changeInsert,
  changePatch,
  originPatch,
  releaseInsert,
  releasePatch,
  tailInsert,
  tailPatch,
} from './columns.js';
import { StoreError, toStoreError, UNWRITABLE } from './errors.js';
import { auditSelect, changesSelect, releasesSelect, tailsSelect } from './filters.js';
import {
  type JsonDecoder,
  type Row,
  toApproval,
  toAudit,
  toChange,
  toLease,
  toRelease,
  toTail,
} from './rows.js';
import { type Dialect, insertSql, type Query, SqlParams, updateSql, whereSql } from './sql.js';
import {
  type ApprovalRecord,
  type AuditEntry,
  type AuditFilter,
  type ChangeFilter,
  type ChangeOrigin,
  type ChangePatch,
  type ChangeRecord,
  type ChangeStatus,
  EXPIRABLE_STATUSES,
  type Lease,
  type ReleaseFilter,
  type ReleasePatch,
  type ReleaseRecord,
  type Store,
  type TailFilter,
  type TailPatch,
  type TailRecord,
  type TransitionOptions,
} from './types.js';

export abstract class SqlStore implements Store {
  abstract readonly kind: 'sqlite' | 'postgres';

  constructor(
    private readonly dialect: Dialect,
    private readonly json: JsonDecoder,
  ) {}

  abstract migrate(): Promise<void>;
  abstract close(): Promise<void>;
  /** Runs one statement; returns its rows (the RETURNING rows for writes, [] when none). */
  protected abstract rows(query: Query): Promise<Row[]>;

  async ping(): Promise<void> {
    await this.rows({ sql: 'SELECT 1', params: [] });
    // SELECT 1 answers on a full disk and on a read-only database; only a real write shows the
    // store can record a change. A fresh row (not an update in place) needs new space, as a change would.
    const key = `health:${randomUUID()}`;
    try {
      const p = this.params();
      await this.rows(
        p.query(
          `INSERT INTO leases (key, owner, expires_at) VALUES (${p.add(key)}, 'health', 0) RETURNING key`,
        ),
      );
      const q = this.params();
      await this.rows(q.query(`DELETE FROM leases WHERE key = ${q.add(key)} RETURNING key`));
    } catch (err) {
      const cause = toStoreError(err);
      throw new StoreError(`the store answers but refuses writes: ${cause.message}`, UNWRITABLE, { cause });
    }
  }

  private params(): SqlParams {
    return new SqlParams(this.dialect);
  }

  private async first(query: Query): Promise<Row | undefined> {
    return (await this.rows(query))[0];
  }

  private async byId(table: string, id: string): Promise<Row | undefined> {
    const p = this.params();
    return this.first(p.query(`SELECT * FROM ${table} WHERE id = ${p.add(id)}`));
  }

  /** A versioned update by id, guarded by expectVersion when given. */
  private async updateById(
    table: string,
    sets: ColumnValue[],
    id: string,
    expectVersion?: number,
  ): Promise<Row | undefined> {
    const p = this.params();
    const head = updateSql(table, sets, p);
    const conditions = [`id = ${p.add(id)}`];
    if (expectVersion !== undefined) conditions.push(`version = ${p.add(expectVersion)}`);
    return this.first(p.query(`${head}${whereSql(conditions)} RETURNING *`));
  }

  async createChange(change: Omit<ChangeRecord, 'version'>): Promise<ChangeRecord> {
    const p = this.params();
    const row = await this.first(p.query(insertSql('changes', changeInsert(change), p)));
    return toChange(row as Row, this.json);
  }

  async getChange(id: string): Promise<ChangeRecord | undefined> {
    const row = await this.byId('changes', id);
    return row && toChange(row, this.json);
  }

  async transitionChange(
    id: string,
    from: readonly ChangeStatus[],
    to: ChangeStatus,
    patch: ChangePatch = {},
    opts?: TransitionOptions,
  ): Promise<ChangeRecord | undefined> {
    if (from.length === 0) return undefined;
    const sets = [{ column: 'status', value: to, json: false }, ...changePatch(patch)];
    if (opts?.now !== undefined) sets.push({ column: 'updated_at', value: opts.now, json: false });
    const p = this.params();
    const head = updateSql('changes', sets, p);
    const conditions = [`id = ${p.add(id)}`, p.oneOf('status', from)];
    if (opts?.expectVersion !== undefined) conditions.push(`version = ${p.add(opts.expectVersion)}`);
    const row = await this.first(p.query(`${head}${whereSql(conditions)} RETURNING *`));
    return row && toChange(row, this.json);
  }

  async updateChangeOrigin(
    id: string,
    origin: Partial<ChangeOrigin>,
    now: number,
  ): Promise<ChangeRecord | undefined> {
    const sets = [...originPatch(origin), { column: 'updated_at', value: now, json: false }];
    const row = await this.updateById('changes', sets, id);
    return row && toChange(row, this.json);
  }

  async listChanges(filter: ChangeFilter): Promise<ChangeRecord[]> {
    if (filter.status && filter.status.length === 0) return [];
    const p = this.params();
    return (await this.rows(p.query(changesSelect(filter, p)))).map((row) => toChange(row, this.json));
  }

  async markDrawn(id: string, status: ChangeStatus): Promise<void> {
    const p = this.params();
    await this.rows(
      p.query(`UPDATE changes SET drawn_status = ${p.add(status)} WHERE id = ${p.add(id)} RETURNING id`),
    );
  }

  async expireChanges(now: number): Promise<ChangeRecord[]> {
    const p = this.params();
    const head = updateSql(
      'changes',
      [
        { column: 'status', value: 'expired', json: false },
        { column: 'updated_at', value: now, json: false },
      ],
      p,
    );
    const conditions = [p.oneOf('status', EXPIRABLE_STATUSES), `expires_at <= ${p.add(now)}`];
    const sql = `${head}${whereSql(conditions)} RETURNING *`;
    const rows = await this.rows(p.query(sql));
    // RETURNING order is unspecified; callers (and audit lines) get a stable order.
    return rows.map((row) => toChange(row, this.json)).sort(byCreated);
  }

  async addApproval(approval: ApprovalRecord): Promise<boolean> {
    const p = this.params();
    const values = [
      approval.changeId,
      approval.userId,
      approval.decision,
      approval.at,
      approval.comment ?? null,
    ];
    const sql =
      `INSERT INTO approvals (change_id, user_id, decision, at, comment) VALUES (${values.map((v) => p.add(v)).join(', ')}) ` +
      'ON CONFLICT (change_id, user_id) DO NOTHING RETURNING change_id';
    return (await this.first(p.query(sql))) !== undefined;
  }

  async listApprovals(changeId: string): Promise<ApprovalRecord[]> {
    const p = this.params();
    const sql = `SELECT * FROM approvals WHERE change_id = ${p.add(changeId)} ORDER BY at, user_id`;
    return (await this.rows(p.query(sql))).map(toApproval);
  }

  async appendAudit(entry: AuditEntry): Promise<AuditEntry> {
    const p = this.params();
    const row = await this.first(p.query(insertSql('audit', auditInsert(entry), p)));
    return toAudit(row as Row, this.json);
  }

  async queryAudit(filter: AuditFilter): Promise<AuditEntry[]> {
    const p = this.params();
    return (await this.rows(p.query(auditSelect(filter, p)))).map((row) => toAudit(row, this.json));
  }

  async createRelease(r: Omit<ReleaseRecord, 'version'>): Promise<ReleaseRecord> {
    const p = this.params();
    const row = await this.first(p.query(insertSql('releases', releaseInsert(r), p)));
    return toRelease(row as Row, this.json);
  }

  async getRelease(id: string): Promise<ReleaseRecord | undefined> {
    const row = await this.byId('releases', id);
    return row && toRelease(row, this.json);
  }

  async findReleaseByMessage(channel: string, messageTs: string): Promise<ReleaseRecord | undefined> {
    const p = this.params();
    const sql =
      `SELECT * FROM releases WHERE channel = ${p.add(channel)} AND message_ts = ${p.add(messageTs)} ` +
      'ORDER BY created_at DESC, id DESC LIMIT 1';
    const row = await this.first(p.query(sql));
    return row && toRelease(row, this.json);
  }

  async findOpenReleaseByTitle(
    workspace: string,
    channel: string,
    title: string,
  ): Promise<ReleaseRecord | undefined> {
    const p = this.params();
    const sql =
      `SELECT * FROM releases WHERE workspace = ${p.add(workspace)} AND channel = ${p.add(channel)} ` +
      `AND title = ${p.add(title)} AND status = 'open' ORDER BY created_at DESC, id DESC LIMIT 1`;
    const row = await this.first(p.query(sql));
    return row && toRelease(row, this.json);
  }

  async updateRelease(
    id: string,
    patch: ReleasePatch,
    expectVersion?: number,
  ): Promise<ReleaseRecord | undefined> {
    const row = await this.updateById('releases', releasePatch(patch), id, expectVersion);
    return row && toRelease(row, this.json);
  }

  async listReleases(filter: ReleaseFilter): Promise<ReleaseRecord[]> {
    const p = this.params();
    return (await this.rows(p.query(releasesSelect(filter, p)))).map((row) => toRelease(row, this.json));
  }

  async createTail(t: Omit<TailRecord, 'version'>): Promise<TailRecord> {
    const p = this.params();
    const row = await this.first(p.query(insertSql('tails', tailInsert(t), p)));
    return toTail(row as Row, this.json);
  }

  async getTail(id: string): Promise<TailRecord | undefined> {
    const row = await this.byId('tails', id);
    return row && toTail(row, this.json);
  }

  async updateTail(id: string, patch: TailPatch, expectVersion?: number): Promise<TailRecord | undefined> {
    const row = await this.updateById('tails', tailPatch(patch), id, expectVersion);
    return row && toTail(row, this.json);
  }

  async listTails(filter: TailFilter): Promise<TailRecord[]> {
    const p = this.params();
    return (await this.rows(p.query(tailsSelect(filter, p)))).map((row) => toTail(row, this.json));
  }

  async acquireLease(key: string, owner: string, ttlMs: number, now: number): Promise<boolean> {
    // One statement: insert when free, or take over when ours or expired. RETURNING yields
    // nothing when the DO UPDATE's WHERE refused, i.e. someone else holds a live lease.
    const p = this.params();
    const sql =
      `INSERT INTO leases (key, owner, expires_at) VALUES (${p.add(key)}, ${p.add(owner)}, ${p.add(now + ttlMs)}) ` +
      'ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at ' +
      `WHERE leases.owner = excluded.owner OR leases.expires_at <= ${p.add(now)} RETURNING key`;
    return (await this.first(p.query(sql))) !== undefined;
  }

  async renewLease(key: string, owner: string, ttlMs: number, now: number): Promise<boolean> {
    // Still ours even if it lapsed meanwhile: nobody took it, so extending it is safe.
    const p = this.params();
    const sql =
      `UPDATE leases SET expires_at = ${p.add(now + ttlMs)} ` +
      `WHERE key = ${p.add(key)} AND owner = ${p.add(owner)} RETURNING key`;
    return (await this.first(p.query(sql))) !== undefined;
  }

  async releaseLease(key: string, owner: string): Promise<void> {
    const p = this.params();
    await this.rows(
      p.query(`DELETE FROM leases WHERE key = ${p.add(key)} AND owner = ${p.add(owner)} RETURNING key`),
    );
  }

  async rememberRequest(key: string, ttlMs: number, now: number): Promise<boolean> {
    // Request keys share the leases table (key, owner, expiry) under their own prefix: no
    // migration, and one statement decides which of two replicas saw a key first.
    const p = this.params();
    const forget = `DELETE FROM leases WHERE key LIKE 'request:%' AND expires_at <= ${p.add(now)} RETURNING key`;
    await this.rows(p.query(forget));
    const q = this.params();
    const sql =
      `INSERT INTO leases (key, owner, expires_at) VALUES (${q.add(`request:${key}`)}, 'request', ${q.add(now + ttlMs)}) ` +
      'ON CONFLICT (key) DO NOTHING RETURNING key';
    return (await this.first(q.query(sql))) !== undefined;
  }

  async getLease(key: string): Promise<Lease | undefined> {
    const p = this.params();
    const row = await this.first(p.query(`SELECT * FROM leases WHERE key = ${p.add(key)}`));
    return row && toLease(row);
  }
}

/** Oldest first, ties broken by id, so both stores return the same order. */
function byCreated(a: ChangeRecord, b: ChangeRecord): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
