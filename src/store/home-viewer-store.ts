/**
 * Who has opened their Home tab lately, in SQL, so that whichever replica
 * handles an action redraws the tabs a person may be looking at, not only
 * those opened through it. Like views and request keys they share the leases
 * table (key, owner, expiry) under their own `home:<team>:` prefix: no
 * migration. The owner column holds the person's user id.
 */

import { params, type SqlRunner } from './sql-runner.js';
import type { HomeViewerStore } from './types.js';

export class SqlHomeViewerStore implements HomeViewerStore {
  constructor(private readonly db: SqlRunner) {}

  async noteHomeOpened(team: string, user: string, ttlMs: number, now: number): Promise<void> {
    const p = params(this.db);
    const forget = `DELETE FROM leases WHERE key LIKE 'home:%' AND expires_at <= ${p.add(now)} RETURNING key`;
    await this.db.rows(p.query(forget));
    const q = params(this.db);
    const sql =
      `INSERT INTO leases (key, owner, expires_at) VALUES (${q.add(`home:${team}:${user}`)}, ${q.add(user)}, ${q.add(now + ttlMs)}) ` +
      'ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at RETURNING key';
    await this.db.rows(q.query(sql));
  }

  async homeViewers(team: string, now: number): Promise<string[]> {
    const p = params(this.db);
    // The team id is Slack's (T + letters and digits), so it holds no LIKE wildcard.
    const sql = `SELECT owner FROM leases WHERE key LIKE ${p.add(`home:${team}:%`)} AND expires_at > ${p.add(now)} ORDER BY owner`;
    const rows = await this.db.rows(p.query(sql));
    return rows.flatMap((row) => (typeof row.owner === 'string' ? [row.owner] : []));
  }
}
