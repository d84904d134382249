/**
 * Watches in SQL (issue 29), the same statement text on SQLite and
 * PostgreSQL. What several replicas must agree on is decided here, each by
 * one statement: the next poll of an environment (a conditional upsert on
 * its last poll time), one open alert per object and channel (a partial
 * unique index, inserted with ON CONFLICT DO NOTHING), who posts an alert
 * (a claim), and who edits a recovered one (the UPDATE that recovers it
 * returns the rows it changed, to that caller only).
 */

import type { JsonRowColumn } from './sql.js';
import { first, params, type SqlRunner } from './sql-runner.js';
import { watchDecoders } from './watch-rows.js';
import type {
  AlertDrawn,
  AlertFilter,
  AlertRevision,
  PollFailure,
  WatchAlert,
  WatchPollerRecord,
  WatchStore,
  WatchSubscription,
  WatchTrouble,
} from './watch-types.js';

/** The columns openAlerts writes from each alert (drawn is always 'none'). */
const ALERT_COLUMNS: readonly JsonRowColumn[] = [
  ['id', 'text'],
  ['workspace', 'text'],
  ['channel', 'text'],
  ['env', 'text'],
  ['object_key', 'text'],
  ['kind', 'text'],
  ['name', 'text'],
  ['region', 'text'],
  ['state', 'text'],
  ['reason', 'text'],
  ['detail', 'text'],
  ['fleets', 'text'],
  ['first_bad_at', 'int'],
  ['opened_at', 'int'],
];

const opt = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export class SqlWatchStore implements WatchStore {
  private readonly decode;

  constructor(private readonly db: SqlRunner) {
    this.decode = watchDecoders(db.dialect);
  }

  async addWatch(sub: WatchSubscription): Promise<boolean> {
    const p = params(this.db);
    const sql =
      'INSERT INTO watch_subscriptions (workspace, channel, env, created_by, created_at) ' +
      `VALUES (${p.add(sub.workspace)}, ${p.add(sub.channel)}, ${p.add(sub.env)}, ${p.add(sub.createdBy)}, ${p.add(sub.createdAt)}) ` +
      'ON CONFLICT (workspace, channel, env) DO NOTHING RETURNING env';
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async removeWatch(workspace: string, channel: string, env: string): Promise<boolean> {
    const p = params(this.db);
    const sql =
      `DELETE FROM watch_subscriptions WHERE workspace = ${p.add(workspace)} AND channel = ${p.add(channel)} ` +
      `AND env = ${p.add(env)} RETURNING env`;
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async listWatches(filter: {
    workspace?: string;
    channel?: string;
    env?: string;
  }): Promise<WatchSubscription[]> {
    const p = params(this.db);
    const where: string[] = [];
    if (filter.workspace !== undefined) where.push(`workspace = ${p.add(filter.workspace)}`);
    if (filter.channel !== undefined) where.push(`channel = ${p.add(filter.channel)}`);
    if (filter.env !== undefined) where.push(`env = ${p.add(filter.env)}`);
    const sql = `SELECT * FROM watch_subscriptions${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY workspace, channel, env`;
    return (await this.db.rows(p.query(sql))).map(this.decode.subscription);
  }

  async watchedEnvironments(): Promise<string[]> {
    const rows = await this.db.rows({
      sql: 'SELECT DISTINCT env FROM watch_subscriptions ORDER BY env',
      params: [],
    });
    return rows.flatMap((r) => (typeof r.env === 'string' ? [r.env] : []));
  }

  async claimPoll(env: string, gapMs: number, now: number): Promise<boolean> {
    const p = params(this.db);
    // RETURNING yields nothing when the WHERE refused: polled within the gap, or paused.
    const sql =
      `INSERT INTO watch_pollers (env, last_poll_at, failures) VALUES (${p.add(env)}, ${p.add(now)}, 0) ` +
      'ON CONFLICT (env) DO UPDATE SET last_poll_at = excluded.last_poll_at ' +
      `WHERE (watch_pollers.last_poll_at IS NULL OR watch_pollers.last_poll_at <= ${p.add(now - gapMs)}) ` +
      `AND (watch_pollers.resume_at IS NULL OR watch_pollers.resume_at <= ${p.add(now)}) RETURNING env`;
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async notePoll(env: string, failure: PollFailure | undefined): Promise<void> {
    const p = params(this.db);
    const sql = failure
      ? `UPDATE watch_pollers SET failures = failures + 1, paused_status = ${p.add(failure.status)}, ` +
        `paused_at = ${p.add(failure.at)}, resume_at = ${p.add(failure.resumeAt)}, paused_reason = ${p.add(failure.reason)} ` +
        `WHERE env = ${p.add(env)} RETURNING env`
      : 'UPDATE watch_pollers SET failures = 0, paused_status = NULL, paused_at = NULL, resume_at = NULL, ' +
        `paused_reason = NULL WHERE env = ${p.add(env)} RETURNING env`;
    await this.db.rows(p.query(sql));
  }

  async getPoller(env: string): Promise<WatchPollerRecord | undefined> {
    const p = params(this.db);
    const row = await first(this.db, p.query(`SELECT * FROM watch_pollers WHERE env = ${p.add(env)}`));
    return row && this.decode.poller(row);
  }

  async listTroubles(env: string): Promise<WatchTrouble[]> {
    const p = params(this.db);
    const rows = await this.db.rows(
      p.query(`SELECT * FROM watch_troubles WHERE env = ${p.add(env)} ORDER BY object_key`),
    );
    return rows.map(this.decode.trouble);
  }

  async putTrouble(t: WatchTrouble): Promise<void> {
    const p = params(this.db);
    const sql =
      'INSERT INTO watch_troubles (env, object_key, kind, name, state, reason, detail, first_bad_at, last_bad_at, good_since) ' +
      `VALUES (${p.add(t.env)}, ${p.add(t.objectKey)}, ${p.add(t.kind)}, ${p.add(t.name)}, ${p.add(t.state)}, ` +
      `${p.add(opt(t.reason))}, ${p.add(opt(t.detail))}, ${p.add(t.firstBadAt)}, ${p.add(t.lastBadAt)}, ${p.add(opt(t.goodSince))}) ` +
      'ON CONFLICT (env, object_key) DO UPDATE SET kind = excluded.kind, name = excluded.name, state = excluded.state, ' +
      'reason = excluded.reason, detail = excluded.detail, first_bad_at = excluded.first_bad_at, ' +
      'last_bad_at = excluded.last_bad_at, good_since = excluded.good_since RETURNING env';
    await this.db.rows(p.query(sql));
  }

  async deleteTrouble(env: string, objectKey: string): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(
        `DELETE FROM watch_troubles WHERE env = ${p.add(env)} AND object_key = ${p.add(objectKey)} RETURNING env`,
      ),
    );
  }

  async noteProgress(
    env: string,
    marks: ReadonlyMap<string, string>,
    now: number,
  ): Promise<Map<string, number>> {
    const d = params(this.db);
    const keys = [...marks.keys()];
    // Rollouts no longer under way (or no longer followed) are forgotten: a new one starts its own clock.
    // Placeholders in statement order (SQLite's are positional).
    let forget = `DELETE FROM watch_progress WHERE env = ${d.add(env)}`;
    if (keys.length > 0) forget += ` AND NOT (${d.anyOf('object_key', keys)})`;
    await this.db.rows(d.query(`${forget} RETURNING env`));
    const since = new Map<string, number>();
    for (const [key, mark] of marks) {
      const p = params(this.db);
      // The clock restarts only when the mark moved.
      const sql =
        `INSERT INTO watch_progress (env, object_key, mark, since) VALUES (${p.add(env)}, ${p.add(key)}, ${p.add(mark)}, ${p.add(now)}) ` +
        'ON CONFLICT (env, object_key) DO UPDATE SET mark = excluded.mark, ' +
        'since = CASE WHEN watch_progress.mark = excluded.mark THEN watch_progress.since ELSE excluded.since END RETURNING *';
      const row = await first(this.db, p.query(sql));
      since.set(key, row ? this.decode.progress(row).since : now);
    }
    return since;
  }

  async openAlerts(alerts: readonly WatchAlert[]): Promise<WatchAlert[]> {
    if (alerts.length === 0) return [];
    const p = params(this.db);
    const rows = alerts.map((a) => ({
      id: a.id,
      workspace: a.workspace,
      channel: a.channel,
      env: a.env,
      object_key: a.objectKey,
      kind: a.kind,
      name: a.name,
      region: opt(a.region),
      state: a.state,
      reason: opt(a.reason),
      detail: opt(a.detail),
      fleets: a.fleets ? JSON.stringify(a.fleets) : null,
      first_bad_at: a.firstBadAt,
      opened_at: a.openedAt,
    }));
    const list = ALERT_COLUMNS.map(([name]) => name).join(', ');
    const source = p.jsonRows(rows, ALERT_COLUMNS, 'a');
    // One statement for the lot; rows go in key order, so two replicas opening overlapping sets wait
    // on each other in the same order instead of deadlocking. SQLite's upsert needs the WHERE.
    const sql =
      `INSERT INTO watch_alerts (${list}, drawn) SELECT ${list}, 'none' FROM ${source} WHERE true ` +
      'ORDER BY workspace, channel, env, object_key ' +
      'ON CONFLICT (workspace, channel, env, object_key) WHERE recovered_at IS NULL DO NOTHING RETURNING *';
    return (await this.db.rows(p.query(sql))).map(this.decode.alert);
  }

  async listAlerts(filter: AlertFilter): Promise<WatchAlert[]> {
    const p = params(this.db);
    const where: string[] = [];
    if (filter.workspace !== undefined) where.push(`workspace = ${p.add(filter.workspace)}`);
    if (filter.channels !== undefined) {
      if (filter.channels.length === 0) return [];
      where.push(p.anyOf('channel', filter.channels));
    }
    if (filter.env !== undefined) where.push(`env = ${p.add(filter.env)}`);
    if (filter.objectKey !== undefined) where.push(`object_key = ${p.add(filter.objectKey)}`);
    if (filter.open === true) where.push('recovered_at IS NULL');
    if (filter.open === false) where.push('recovered_at IS NOT NULL');
    if (filter.undrawn) {
      where.push(
        "((recovered_at IS NULL AND drawn = 'none') OR (recovered_at IS NOT NULL AND message_ts IS NOT NULL AND drawn <> 'recovered'))",
      );
    }
    const limit = filter.limit !== undefined ? ` LIMIT ${p.add(filter.limit)}` : '';
    const sql = `SELECT * FROM watch_alerts${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY opened_at DESC, id${limit}`;
    return (await this.db.rows(p.query(sql))).map(this.decode.alert);
  }

  async getAlert(id: string): Promise<WatchAlert | undefined> {
    const p = params(this.db);
    const row = await first(this.db, p.query(`SELECT * FROM watch_alerts WHERE id = ${p.add(id)}`));
    return row && this.decode.alert(row);
  }

  async claimAlertPost(id: string, owner: string, staleMs: number, now: number): Promise<boolean> {
    const p = params(this.db);
    const sql =
      `UPDATE watch_alerts SET post_claim = ${p.add(owner)}, post_claim_at = ${p.add(now)} ` +
      `WHERE id = ${p.add(id)} AND message_ts IS NULL AND (post_claim IS NULL OR post_claim = ${p.add(owner)} ` +
      `OR post_claim_at <= ${p.add(now - staleMs)}) RETURNING id`;
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async reviseAlert(id: string, r: AlertRevision): Promise<boolean> {
    const p = params(this.db);
    // Placeholders in statement order (SQLite's are positional).
    const sql =
      `UPDATE watch_alerts SET state = ${p.add(r.state)}, reason = ${p.add(opt(r.reason))}, ` +
      `detail = ${p.add(opt(r.detail))}, fleets = ${p.add(JSON.stringify(r.fleets))}, drawn = 'none' ` +
      `WHERE id = ${p.add(id)} AND recovered_at IS NULL RETURNING id`;
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async markAlertDrawn(id: string, drawn: AlertDrawn, messageTs?: string): Promise<void> {
    const p = params(this.db);
    // Placeholders are handed out left to right (SQLite's are positional), so the SET is written in order.
    let sets = `drawn = ${p.add(drawn)}`;
    if (messageTs !== undefined) sets += `, message_ts = ${p.add(messageTs)}`;
    await this.db.rows(p.query(`UPDATE watch_alerts SET ${sets} WHERE id = ${p.add(id)} RETURNING id`));
  }

  async recoverAlerts(env: string, objectKey: string, lastedMs: number, now: number): Promise<WatchAlert[]> {
    const p = params(this.db);
    const sql =
      `UPDATE watch_alerts SET recovered_at = ${p.add(now)}, lasted_ms = ${p.add(lastedMs)} ` +
      `WHERE env = ${p.add(env)} AND object_key = ${p.add(objectKey)} AND recovered_at IS NULL RETURNING *`;
    return (await this.db.rows(p.query(sql))).map(this.decode.alert);
  }

  async muteAlert(id: string, until: number, by: string): Promise<WatchAlert | undefined> {
    const p = params(this.db);
    const sql = `UPDATE watch_alerts SET muted_until = ${p.add(until)}, muted_by = ${p.add(by)} WHERE id = ${p.add(id)} RETURNING *`;
    const row = await first(this.db, p.query(sql));
    return row && this.decode.alert(row);
  }

  async mutedChannels(env: string, objectKey: string, now: number): Promise<string[]> {
    const p = params(this.db);
    const sql =
      `SELECT DISTINCT workspace, channel FROM watch_alerts WHERE env = ${p.add(env)} AND object_key = ${p.add(objectKey)} ` +
      `AND muted_until > ${p.add(now)} ORDER BY workspace, channel`;
    return (await this.db.rows(p.query(sql))).map((r) => `${String(r.workspace)}:${String(r.channel)}`);
  }
}
