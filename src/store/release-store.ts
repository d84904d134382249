/** Release threads in SQL; updates are versioned so two redraws cannot overwrite each other unseen. */

import { releaseInsert, releasePatch } from './columns.js';
import { releasesSelect } from './filters.js';
import { insertSql } from './sql.js';
import { byId, first, params, type SqlRunner, updateById } from './sql-runner.js';
import type { ReleaseFilter, ReleasePatch, ReleaseRecord, ReleaseStore } from './types.js';

export class SqlReleaseStore implements ReleaseStore {
  constructor(private readonly db: SqlRunner) {}

  async createRelease(r: Omit<ReleaseRecord, 'version'>): Promise<ReleaseRecord> {
    const p = params(this.db);
    const row = await first(this.db, p.query(insertSql('releases', releaseInsert(r), p)));
    return this.db.decode.release(row);
  }

  async getRelease(id: string): Promise<ReleaseRecord | undefined> {
    const row = await byId(this.db, 'releases', id);
    return row && this.db.decode.release(row);
  }

  async findReleaseByMessage(channel: string, messageTs: string): Promise<ReleaseRecord | undefined> {
    const p = params(this.db);
    const sql =
      `SELECT * FROM releases WHERE channel = ${p.add(channel)} AND message_ts = ${p.add(messageTs)} ` +
      'ORDER BY created_at DESC, id DESC LIMIT 1';
    const row = await first(this.db, p.query(sql));
    return row && this.db.decode.release(row);
  }

  async findOpenReleaseByTitle(
    workspace: string,
    channel: string,
    title: string,
  ): Promise<ReleaseRecord | undefined> {
    const p = params(this.db);
    const sql =
      `SELECT * FROM releases WHERE workspace = ${p.add(workspace)} AND channel = ${p.add(channel)} ` +
      `AND title = ${p.add(title)} AND status = 'open' ORDER BY created_at DESC, id DESC LIMIT 1`;
    const row = await first(this.db, p.query(sql));
    return row && this.db.decode.release(row);
  }

  async updateRelease(
    id: string,
    patch: ReleasePatch,
    expectVersion?: number,
  ): Promise<ReleaseRecord | undefined> {
    const row = await updateById(this.db, 'releases', releasePatch(patch), id, expectVersion);
    return row && this.db.decode.release(row);
  }

  async listReleases(filter: ReleaseFilter): Promise<ReleaseRecord[]> {
    const p = params(this.db);
    return (await this.db.rows(p.query(releasesSelect(filter, p)))).map((row) => this.db.decode.release(row));
  }
}
