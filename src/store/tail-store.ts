/** Log tails in SQL; updates are versioned so a replica that lost its tail cannot overwrite the new owner's state. */

import { tailInsert, tailPatch } from './columns.js';
import { tailsSelect } from './filters.js';
import { insertSql } from './sql.js';
import { byId, first, params, type SqlRunner, updateById } from './sql-runner.js';
import type { TailFilter, TailPatch, TailRecord, TailStore } from './types.js';

export class SqlTailStore implements TailStore {
  constructor(private readonly db: SqlRunner) {}

  async createTail(t: Omit<TailRecord, 'version'>): Promise<TailRecord> {
    const p = params(this.db);
    const row = await first(this.db, p.query(insertSql('tails', tailInsert(t), p)));
    return this.db.decode.tail(row);
  }

  async getTail(id: string): Promise<TailRecord | undefined> {
    const row = await byId(this.db, 'tails', id);
    return row && this.db.decode.tail(row);
  }

  async updateTail(id: string, patch: TailPatch, expectVersion?: number): Promise<TailRecord | undefined> {
    const row = await updateById(this.db, 'tails', tailPatch(patch), id, expectVersion);
    return row && this.db.decode.tail(row);
  }

  async listTails(filter: TailFilter): Promise<TailRecord[]> {
    const p = params(this.db);
    return (await this.db.rows(p.query(tailsSelect(filter, p)))).map((row) => this.db.decode.tail(row));
  }
}
