/**
 * Request keys in SQL. They share the leases table (key, owner, expiry) under
 * their own `request:` prefix: no migration, and one statement decides which
 * of two replicas saw a key first.
 */

import { first, params, type SqlRunner } from './sql-runner.js';
import type { RequestKeyStore } from './types.js';

export class SqlRequestKeyStore implements RequestKeyStore {
  constructor(private readonly db: SqlRunner) {}

  async rememberRequest(key: string, ttlMs: number, now: number): Promise<boolean> {
    const p = params(this.db);
    const forget = `DELETE FROM leases WHERE key LIKE 'request:%' AND expires_at <= ${p.add(now)} RETURNING key`;
    await this.db.rows(p.query(forget));
    const q = params(this.db);
    const sql =
      `INSERT INTO leases (key, owner, expires_at) VALUES (${q.add(`request:${key}`)}, 'request', ${q.add(now + ttlMs)}) ` +
      'ON CONFLICT (key) DO NOTHING RETURNING key';
    return (await first(this.db, q.query(sql))) !== undefined;
  }
}
