/**
 * Slack's drawing state of change messages (issue 39), in a table of its own
 * (`slack_change_messages`) owned by src/slack/change-messages: where a
 * change's message is, the thread reply that asked its approvers, and the
 * status the message last showed, so every replica agrees on what is drawn
 * and housekeeping repairs the rest. The domain's change rows hold none of it.
 */

import { params, type SqlRunner } from './sql-runner.js';
import {
  CHANGE_STATUSES,
  type ChangeMessageRecord,
  type ChangeMessageStore,
  type ChangeRecord,
  type ChangeStatus,
} from './types.js';

export class SqlChangeMessageStore implements ChangeMessageStore {
  constructor(private readonly db: SqlRunner) {}

  async placeChangeMessage(changeId: string, channel: string, messageTs: string): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(
        `INSERT INTO slack_change_messages (change_id, channel, message_ts) VALUES (${p.add(changeId)}, ${p.add(channel)}, ${p.add(messageTs)}) ` +
          'ON CONFLICT (change_id) DO UPDATE SET channel = excluded.channel, message_ts = excluded.message_ts RETURNING change_id',
      ),
    );
  }

  async noteAsk(changeId: string, channel: string, askTs: string): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(
        `INSERT INTO slack_change_messages (change_id, channel, ask_ts) VALUES (${p.add(changeId)}, ${p.add(channel)}, ${p.add(askTs)}) ` +
          'ON CONFLICT (change_id) DO UPDATE SET ask_ts = excluded.ask_ts RETURNING change_id',
      ),
    );
  }

  async markMessageDrawn(changeId: string, status: ChangeStatus): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(
        `UPDATE slack_change_messages SET drawn_status = ${p.add(status)} WHERE change_id = ${p.add(changeId)} RETURNING change_id`,
      ),
    );
  }

  async changeMessages(changeIds: readonly string[]): Promise<Map<string, ChangeMessageRecord>> {
    const out = new Map<string, ChangeMessageRecord>();
    if (changeIds.length === 0) return out;
    const p = params(this.db);
    const rows = await this.db.rows(
      p.query(`SELECT * FROM slack_change_messages WHERE ${p.anyOf('change_id', changeIds)}`),
    );
    for (const r of rows) {
      const drawn = typeof r.drawn_status === 'string' ? r.drawn_status : undefined;
      out.set(String(r.change_id), {
        changeId: String(r.change_id),
        channel: String(r.channel),
        ...(typeof r.message_ts === 'string' ? { messageTs: r.message_ts } : {}),
        ...(typeof r.ask_ts === 'string' ? { askTs: r.ask_ts } : {}),
        ...(drawn && (CHANGE_STATUSES as readonly string[]).includes(drawn)
          ? { drawnStatus: drawn as ChangeStatus }
          : {}),
      });
    }
    return out;
  }

  async undrawnChanges(statuses: readonly ChangeStatus[], limit: number): Promise<ChangeRecord[]> {
    if (statuses.length === 0) return [];
    const p = params(this.db);
    const sql =
      'SELECT c.* FROM changes c JOIN slack_change_messages m ON m.change_id = c.id ' +
      `WHERE ${p.oneOf('c.status', statuses)} AND m.message_ts IS NOT NULL ` +
      'AND (m.drawn_status IS NULL OR m.drawn_status <> c.status) ' +
      `ORDER BY c.created_at, c.id LIMIT ${p.add(limit)}`;
    return (await this.db.rows(p.query(sql))).map((row) => this.db.decode.change(row));
  }
}
