/** Leases in SQL: who holds a key until when; every take-over is one statement, so two replicas cannot both win. */

import { first, params, type SqlRunner } from './sql-runner.js';
import type { Lease, LeaseStore } from './types.js';

export class SqlLeaseStore implements LeaseStore {
  constructor(private readonly db: SqlRunner) {}

  async acquireLease(key: string, owner: string, ttlMs: number, now: number): Promise<boolean> {
    // One statement: insert when free, or take over when ours or expired. RETURNING yields
    // nothing when the DO UPDATE's WHERE refused, i.e. someone else holds a live lease.
    const p = params(this.db);
    const sql =
      `INSERT INTO leases (key, owner, expires_at) VALUES (${p.add(key)}, ${p.add(owner)}, ${p.add(now + ttlMs)}) ` +
      'ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at ' +
      `WHERE leases.owner = excluded.owner OR leases.expires_at <= ${p.add(now)} RETURNING key`;
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async renewLease(key: string, owner: string, ttlMs: number, now: number): Promise<boolean> {
    // Still ours even if it lapsed meanwhile: nobody took it, so extending it is safe.
    const p = params(this.db);
    const sql =
      `UPDATE leases SET expires_at = ${p.add(now + ttlMs)} ` +
      `WHERE key = ${p.add(key)} AND owner = ${p.add(owner)} RETURNING key`;
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async releaseLease(key: string, owner: string): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(`DELETE FROM leases WHERE key = ${p.add(key)} AND owner = ${p.add(owner)} RETURNING key`),
    );
  }

  async getLease(key: string): Promise<Lease | undefined> {
    const p = params(this.db);
    const row = await first(this.db, p.query(`SELECT * FROM leases WHERE key = ${p.add(key)}`));
    return row && this.db.decode.lease(row);
  }
}
