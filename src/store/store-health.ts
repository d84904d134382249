/** The health check both SQL stores share: the database answers, and takes a write. */

import { randomUUID } from 'node:crypto';
import { StoreError, toStoreError, UNWRITABLE } from './errors.js';
import { params, type SqlRunner } from './sql-runner.js';

/** Resolves when the store answers a query and takes a write; rejects with a StoreError otherwise. */
export async function pingSql(db: SqlRunner): Promise<void> {
  await db.rows({ sql: 'SELECT 1', params: [] });
  // SELECT 1 answers on a full disk and on a read-only database; only a real write shows the
  // store can record a change. A fresh row (not an update in place) needs new space, as a change would.
  const key = `health:${randomUUID()}`;
  try {
    const p = params(db);
    await db.rows(
      p.query(
        `INSERT INTO leases (key, owner, expires_at) VALUES (${p.add(key)}, 'health', 0) RETURNING key`,
      ),
    );
    const q = params(db);
    await db.rows(q.query(`DELETE FROM leases WHERE key = ${q.add(key)} RETURNING key`));
  } catch (err) {
    const cause = toStoreError(err);
    throw new StoreError(`the store answers but refuses writes: ${cause.message}`, UNWRITABLE, { cause });
  }
}
