/**
 * The views the bot opened, in SQL. Like request keys they share the leases
 * table (key, owner, expiry) under their own `view:` prefix: no migration,
 * and every replica sees a view another one opened. The owner column holds
 * the view's latest hash.
 */

import { first, params, type SqlRunner } from './sql-runner.js';
import type { ViewStore } from './types.js';

export class SqlViewStore implements ViewStore {
  constructor(private readonly db: SqlRunner) {}

  async rememberView(viewId: string, hash: string, ttlMs: number, now: number): Promise<void> {
    const p = params(this.db);
    const forget = `DELETE FROM leases WHERE key LIKE 'view:%' AND expires_at <= ${p.add(now)} RETURNING key`;
    await this.db.rows(p.query(forget));
    const q = params(this.db);
    const sql =
      `INSERT INTO leases (key, owner, expires_at) VALUES (${q.add(`view:${viewId}`)}, ${q.add(hash)}, ${q.add(now + ttlMs)}) ` +
      'ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at RETURNING key';
    await this.db.rows(q.query(sql));
  }

  async openedViewHash(viewId: string, now: number): Promise<string | undefined> {
    const p = params(this.db);
    const sql = `SELECT owner FROM leases WHERE key = ${p.add(`view:${viewId}`)} AND expires_at > ${p.add(now)}`;
    const owner = (await first(this.db, p.query(sql)))?.owner;
    return typeof owner === 'string' ? owner : undefined;
  }
}
