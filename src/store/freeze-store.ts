/**
 * Freezes in SQL (issue 41), the same statement text on SQLite and
 * PostgreSQL. A freeze is in force while it has not ended and its `until`
 * (if any) is still ahead, so a `for 2h` freeze expires without anyone
 * writing: every replica reading the table at the same instant agrees.
 */

import type { FreezeRecord, FreezeStore } from './freeze-types.js';
import { compact, decoder, JSON_CODECS, rowSchema } from './rows.js';
import type { Dialect, SqlParams } from './sql.js';
import { params, type SqlRunner } from './sql-runner.js';

function freezeDecoder(dialect: Dialect) {
  const schema = rowSchema('freezes', JSON_CODECS[dialect]).transform((r) =>
    compact<FreezeRecord>({
      id: r.id,
      env: r.env,
      createdBy: r.created_by,
      createdAt: r.created_at,
      until: r.until_at,
      reason: r.reason,
      workspace: r.workspace,
      channel: r.channel,
      endedAt: r.ended_at,
      endedBy: r.ended_by,
    }),
  );
  return decoder('freezes', schema);
}

/** The condition "in force at `now`" on a freezes row. */
function inForce(p: SqlParams, now: number): string {
  return `ended_at IS NULL AND (until_at IS NULL OR until_at > ${p.add(now)})`;
}

export class SqlFreezeStore implements FreezeStore {
  private readonly decode;

  constructor(private readonly db: SqlRunner) {
    this.decode = freezeDecoder(db.dialect);
  }

  async addFreeze(f: Omit<FreezeRecord, 'endedAt' | 'endedBy'>): Promise<FreezeRecord[]> {
    const replaced = await this.endFreezes(f.env, f.createdBy, f.createdAt);
    const p = params(this.db);
    const sql =
      'INSERT INTO freezes (id, env, created_by, created_at, until_at, reason, workspace, channel) VALUES (' +
      [f.id, f.env, f.createdBy, f.createdAt, f.until ?? null, f.reason ?? null, f.workspace, f.channel]
        .map((v) => p.add(v))
        .join(', ') +
      ') RETURNING id';
    await this.db.rows(p.query(sql));
    return replaced;
  }

  async endFreezes(env: string, by: string, now: number): Promise<FreezeRecord[]> {
    const p = params(this.db);
    const sql =
      `UPDATE freezes SET ended_at = ${p.add(now)}, ended_by = ${p.add(by)} ` +
      `WHERE env = ${p.add(env)} AND ${inForce(p, now)} RETURNING *`;
    return (await this.db.rows(p.query(sql))).map(this.decode);
  }

  async listFreezes(filter: { now: number; env?: string }): Promise<FreezeRecord[]> {
    const p = params(this.db);
    const where = [inForce(p, filter.now)];
    if (filter.env !== undefined) where.push(`env = ${p.add(filter.env)}`);
    const sql = `SELECT * FROM freezes WHERE ${where.join(' AND ')} ORDER BY created_at, id`;
    return (await this.db.rows(p.query(sql))).map(this.decode);
  }
}
