/**
 * Changes in SQL (SQLite and PostgreSQL alike): each write is one statement
 * with RETURNING, so a conditional transition is atomic in both databases:
 * the row comes back only when the WHERE held at write time.
 */

import { changeInsert, changePatch, originPatch } from './columns.js';
import { changesSelect, NOTICE_COLUMNS } from './filters.js';
import { insertSql, updateSql, whereSql } from './sql.js';
import { byId, first, params, type SqlRunner, updateById } from './sql-runner.js';
import {
  type ChangeFilter,
  type ChangeNotice,
  type ChangeOrigin,
  type ChangePatch,
  type ChangeRecord,
  type ChangeStatus,
  type ChangeStore,
  EXPIRABLE_STATUSES,
  type TransitionOptions,
} from './types.js';

export class SqlChangeStore implements ChangeStore {
  constructor(private readonly db: SqlRunner) {}

  async createChange(change: Omit<ChangeRecord, 'version'>): Promise<ChangeRecord> {
    const p = params(this.db);
    const row = await first(this.db, p.query(insertSql('changes', changeInsert(change), p)));
    return this.db.decode.change(row);
  }

  async getChange(id: string): Promise<ChangeRecord | undefined> {
    const row = await byId(this.db, 'changes', id);
    return row && this.db.decode.change(row);
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
    const p = params(this.db);
    const head = updateSql('changes', sets, p);
    const conditions = [`id = ${p.add(id)}`, p.oneOf('status', from)];
    if (opts?.expectVersion !== undefined) conditions.push(`version = ${p.add(opts.expectVersion)}`);
    const row = await first(this.db, p.query(`${head}${whereSql(conditions)} RETURNING *`));
    return row && this.db.decode.change(row);
  }

  async updateChangeOrigin(
    id: string,
    origin: Partial<ChangeOrigin>,
    now: number,
  ): Promise<ChangeRecord | undefined> {
    const sets = [...originPatch(origin), { column: 'updated_at', value: now, json: false }];
    const row = await updateById(this.db, 'changes', sets, id);
    return row && this.db.decode.change(row);
  }

  async listChanges(filter: ChangeFilter): Promise<ChangeRecord[]> {
    if (filter.status && filter.status.length === 0) return [];
    const p = params(this.db);
    return (await this.db.rows(p.query(changesSelect(filter, p)))).map((row) => this.db.decode.change(row));
  }

  async markDrawn(id: string, status: ChangeStatus): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(`UPDATE changes SET drawn_status = ${p.add(status)} WHERE id = ${p.add(id)} RETURNING id`),
    );
  }

  async markFollowedUp(id: string): Promise<void> {
    const p = params(this.db);
    // Version and updatedAt stay: bookkeeping, so a writer holding the change's version (a
    // promotion's recheck) does not lose its update to the end of a follow-up.
    await this.db.rows(
      p.query(
        `UPDATE changes SET follow_state = 'over' WHERE id = ${p.add(id)} AND follow_state = 'due' RETURNING id`,
      ),
    );
  }

  async claimNotice(
    id: string,
    notice: ChangeNotice,
    statuses: readonly ChangeStatus[],
    now: number,
  ): Promise<ChangeRecord | undefined> {
    if (statuses.length === 0) return undefined;
    const column = NOTICE_COLUMNS[notice];
    const p = params(this.db);
    // Version and updatedAt stay: a notice is bookkeeping, not a change to the change.
    // Parameters are added in the order they appear (SQLite's are positional).
    const head = `UPDATE changes SET ${column} = ${p.add(now)}`;
    const conditions = [`id = ${p.add(id)}`, `${column} IS NULL`, p.oneOf('status', statuses)];
    const row = await first(this.db, p.query(`${head}${whereSql(conditions)} RETURNING *`));
    return row && this.db.decode.change(row);
  }

  async releaseNotice(id: string, notice: ChangeNotice): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(`UPDATE changes SET ${NOTICE_COLUMNS[notice]} = NULL WHERE id = ${p.add(id)} RETURNING id`),
    );
  }

  async claimRollback(id: string, by: string, now: number): Promise<ChangeRecord | undefined> {
    const p = params(this.db);
    // Version and updatedAt stay: the claim is bookkeeping of the rollback, the original's own record is unchanged.
    const head = `UPDATE changes SET rolled_back_by = ${p.add(by)}, rolled_back_at = ${p.add(now)}`;
    const conditions = [
      `id = ${p.add(id)}`,
      `status = ${p.add('succeeded')}`,
      `(rolled_back_by IS NULL OR rolled_back_by = ${p.add(by)})`,
    ];
    const row = await first(this.db, p.query(`${head}${whereSql(conditions)} RETURNING *`));
    return row && this.db.decode.change(row);
  }

  async releaseRollback(id: string, by: string): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(
        `UPDATE changes SET rolled_back_by = NULL, rolled_back_at = NULL WHERE id = ${p.add(id)} AND rolled_back_by = ${p.add(by)} RETURNING id`,
      ),
    );
  }

  async expireChanges(now: number): Promise<ChangeRecord[]> {
    const p = params(this.db);
    const head = updateSql(
      'changes',
      [
        { column: 'status', value: 'expired', json: false },
        { column: 'updated_at', value: now, json: false },
      ],
      p,
    );
    const conditions = [
      p.oneOf('status', EXPIRABLE_STATUSES),
      `expires_at <= ${p.add(now)}`,
      // An approved scheduled change waits for its time: the scheduler ends it (changes/schedule/).
      "NOT (status = 'approved' AND scheduled_at IS NOT NULL)",
    ];
    const rows = await this.db.rows(p.query(`${head}${whereSql(conditions)} RETURNING *`));
    // RETURNING order is unspecified; callers (and audit lines) get a stable order.
    return rows.map((row) => this.db.decode.change(row)).sort(byCreated);
  }
}

/** Oldest first, ties broken by id, so both stores return the same order. */
function byCreated(a: ChangeRecord, b: ChangeRecord): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
