/**
 * The outbox in SQL (issue 39): events the domain publishes, one row each,
 * written in the same transaction as the change they tell of (see
 * `SqlStore.atomically`), read by every replica in `seq` order. A row its
 * publisher did not deliver itself is claimed once per subscriber in the
 * leases table (`outbox:<subscriber>:<seq>`, as Home viewers share it), so one
 * replica of several draws it. On PostgreSQL an append its publisher did not
 * deliver itself also NOTIFYs `harbor_outbox`, which PostgreSQL delivers at
 * commit, waking the readers.
 */

import { JSON_CODECS } from './rows.js';
import { first, params, type SqlRunner } from './sql-runner.js';
import type { OutboxEntry, OutboxRow, OutboxStore } from './types.js';

/** The channel PostgreSQL readers LISTEN on. */
export const OUTBOX_CHANNEL = 'harbor_outbox';

export class SqlOutboxStore implements OutboxStore {
  constructor(private readonly db: SqlRunner) {}

  async appendOutbox(entry: OutboxEntry): Promise<number> {
    const p = params(this.db);
    const sql =
      'INSERT INTO outbox (topic, at, publisher, told_here, payload) VALUES ' +
      `(${p.add(entry.topic)}, ${p.add(entry.at)}, ${p.add(entry.publisher)}, ${p.add(entry.toldHere ? 1 : 0)}, ${p.add(JSON.stringify(entry.payload), true)}) RETURNING seq`;
    const row = await first(this.db, p.query(sql));
    // Only a row its publisher did not deliver needs the other replicas now.
    if (this.db.dialect === 'postgres' && !entry.toldHere)
      await this.db.rows({ sql: `NOTIFY ${OUTBOX_CHANNEL}`, params: [] });
    return Number(row?.seq);
  }

  async readOutbox(afterSeq: number, limit: number): Promise<OutboxRow[]> {
    const p = params(this.db);
    const rows = await this.db.rows(
      p.query(`SELECT * FROM outbox WHERE seq > ${p.add(afterSeq)} ORDER BY seq LIMIT ${p.add(limit)}`),
    );
    const json = JSON_CODECS[this.db.dialect];
    return rows.map((r) => ({
      seq: Number(r.seq),
      topic: String(r.topic),
      at: Number(r.at),
      publisher: String(r.publisher),
      toldHere: Number(r.told_here) === 1,
      payload: json.parse(r.payload),
    }));
  }

  async lastOutboxSeq(): Promise<number> {
    const row = await first(this.db, { sql: 'SELECT MAX(seq) AS seq FROM outbox', params: [] });
    return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
  }

  async claimOutbox(subscriber: string, seq: number, ttlMs: number, now: number): Promise<boolean> {
    const p = params(this.db);
    const sql =
      `INSERT INTO leases (key, owner, expires_at) VALUES (${p.add(`outbox:${subscriber}:${seq}`)}, ${p.add(subscriber)}, ${p.add(now + ttlMs)}) ` +
      'ON CONFLICT (key) DO NOTHING RETURNING key';
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async pruneOutbox(before: number, now: number): Promise<number> {
    const p = params(this.db);
    const pruned = await this.db.rows(
      p.query(`DELETE FROM outbox WHERE at < ${p.add(before)} RETURNING seq`),
    );
    const q = params(this.db);
    await this.db.rows(
      q.query(`DELETE FROM leases WHERE key LIKE 'outbox:%' AND expires_at <= ${q.add(now)} RETURNING key`),
    );
    return pruned.length;
  }
}
