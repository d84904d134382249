/**
 * Guards in SQL (issue 42), the same statement text on SQLite and
 * PostgreSQL. The lease is in the row: taking it is one conditional update
 * (ours already, or lapsed), so of replicas asking at once one wins, and
 * every move of the guard is conditional on holding it still.
 */

import {
  GUARD_STATES,
  type GuardPatch,
  type GuardRecord,
  type GuardState,
  type GuardStore,
} from './guard-types.js';
import { compact, decoder, JSON_CODECS, rowSchema } from './rows.js';
import type { Dialect, SqlParams } from './sql.js';
import { first, params, type SqlRunner } from './sql-runner.js';

function guardDecoder(dialect: Dialect) {
  const schema = rowSchema('guards', JSON_CODECS[dialect]).transform((r) =>
    compact<GuardRecord>({
      changeId: r.change_id,
      rule: r.rule,
      withinMs: r.within_ms,
      windowEnd: r.window_end,
      state: r.state,
      owner: r.owner,
      leaseUntil: r.lease_until,
      trouble: r.trouble as Record<string, number> | undefined,
      touched: r.touched as string[] | undefined,
      trigger: r.trigger_seen,
      rollbackId: r.rollback_id,
      reason: r.reason,
      createdAt: r.created_at,
      endedAt: r.ended_at,
    }),
  );
  return decoder('guards', schema);
}

const OPEN: readonly GuardState[] = ['watching', 'rolling_back'];

/** "`owner` holds it at `now`". */
function held(p: SqlParams, owner: string, now: number): string {
  return `owner = ${p.add(owner)} AND lease_until > ${p.add(now)}`;
}

function inList(p: SqlParams, values: readonly string[]): string {
  return `(${values.map((v) => p.add(v)).join(', ')})`;
}

export class SqlGuardStore implements GuardStore {
  private readonly decode;

  constructor(private readonly db: SqlRunner) {
    this.decode = guardDecoder(db.dialect);
  }

  async createGuard(g: Pick<GuardRecord, 'changeId' | 'rule' | 'withinMs' | 'windowEnd' | 'createdAt'>) {
    const p = params(this.db);
    const sql =
      'INSERT INTO guards (change_id, rule, within_ms, window_end, state, created_at) VALUES (' +
      [g.changeId, g.rule, g.withinMs, g.windowEnd, 'watching', g.createdAt].map((v) => p.add(v)).join(', ') +
      ') ON CONFLICT (change_id) DO NOTHING RETURNING change_id';
    await this.db.rows(p.query(sql));
  }

  async getGuard(changeId: string): Promise<GuardRecord | undefined> {
    const p = params(this.db);
    const row = await first(this.db, p.query(`SELECT * FROM guards WHERE change_id = ${p.add(changeId)}`));
    return row && this.decode(row);
  }

  async listOpenGuards(limit: number): Promise<GuardRecord[]> {
    const p = params(this.db);
    const sql = `SELECT * FROM guards WHERE state IN ${inList(p, OPEN)} ORDER BY created_at, change_id LIMIT ${p.add(limit)}`;
    return (await this.db.rows(p.query(sql))).map(this.decode);
  }

  async leaseGuard(changeId: string, owner: string, ttlMs: number, now: number) {
    const p = params(this.db);
    const sql =
      `UPDATE guards SET owner = ${p.add(owner)}, lease_until = ${p.add(now + ttlMs)} ` +
      `WHERE change_id = ${p.add(changeId)} AND state IN ${inList(p, OPEN)} ` +
      `AND (owner IS NULL OR owner = ${p.add(owner)} OR lease_until <= ${p.add(now)}) RETURNING *`;
    const row = await first(this.db, p.query(sql));
    return row && this.decode(row);
  }

  async noteGuardTrouble(
    changeId: string,
    owner: string,
    seen: { trouble: Record<string, number>; touched: string[] },
    now: number,
  ) {
    const p = params(this.db);
    const sql =
      `UPDATE guards SET trouble = ${p.add(JSON.stringify(seen.trouble), true)}, ` +
      `touched = ${p.add(JSON.stringify(seen.touched), true)} WHERE change_id = ${p.add(changeId)} ` +
      `AND state = ${p.add('watching')} AND ${held(p, owner, now)} RETURNING change_id`;
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async listRolledBackGuards(since: number, limit: number): Promise<GuardRecord[]> {
    const p = params(this.db);
    const sql =
      `SELECT * FROM guards WHERE state = ${p.add('rolled_back')} AND ended_at >= ${p.add(since)} ` +
      `ORDER BY ended_at DESC, change_id LIMIT ${p.add(limit)}`;
    return (await this.db.rows(p.query(sql))).map(this.decode);
  }

  async moveGuard(
    changeId: string,
    owner: string,
    from: readonly GuardState[],
    patch: GuardPatch,
    now: number,
  ) {
    if (!GUARD_STATES.includes(patch.state)) throw new Error(`unknown guard state ${patch.state}`);
    const p = params(this.db);
    const sets = [`state = ${p.add(patch.state)}`];
    if (patch.trigger !== undefined) sets.push(`trigger_seen = ${p.add(patch.trigger)}`);
    if (patch.rollbackId !== undefined) sets.push(`rollback_id = ${p.add(patch.rollbackId)}`);
    if (patch.reason !== undefined) sets.push(`reason = ${p.add(patch.reason)}`);
    if (patch.endedAt !== undefined) sets.push(`ended_at = ${p.add(patch.endedAt)}`);
    const sql =
      `UPDATE guards SET ${sets.join(', ')} WHERE change_id = ${p.add(changeId)} ` +
      `AND state IN ${inList(p, from)} AND ${held(p, owner, now)} RETURNING *`;
    const row = await first(this.db, p.query(sql));
    return row && this.decode(row);
  }
}
