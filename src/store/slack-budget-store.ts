/**
 * Slack's rate limits in SQL, shared by every replica (issue 22.1). A gate is
 * one row holding its theoretical arrival time (TAT, epoch ms): a slot is
 * taken by one upsert that moves the TAT only while the gate is open for the
 * caller's tolerance, so of any number of replicas asking at once the gate
 * never hands out more than its rate and burst allow. The same statement
 * text runs on SQLite and PostgreSQL (CASE, not GREATEST or MAX, which the
 * two spell differently).
 */

import { first, params, type SqlRunner } from './sql-runner.js';
import type { DemandTotals, SlackBudgetStore, SlotAnswer, SlotRule } from './types.js';

const int = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export class SqlSlackBudgetStore implements SlackBudgetStore {
  constructor(private readonly db: SqlRunner) {}

  async takeSlot(rule: SlotRule, now: number): Promise<SlotAnswer> {
    const { key, intervalMs, toleranceMs } = rule;
    const p = params(this.db);
    // RETURNING yields nothing when the DO UPDATE's WHERE refused: the gate is booked too far ahead.
    const sql =
      `INSERT INTO slack_budget (key, tat) VALUES (${p.add(key)}, ${p.add(now + intervalMs)}) ` +
      'ON CONFLICT (key) DO UPDATE SET tat = ' +
      `(CASE WHEN slack_budget.tat > ${p.add(now)} THEN slack_budget.tat ELSE ${p.add(now)} END) + ${p.add(intervalMs)} ` +
      `WHERE slack_budget.tat <= ${p.add(now + toleranceMs)} RETURNING tat`;
    if (await first(this.db, p.query(sql))) return { taken: true };
    const q = params(this.db);
    const row = await first(this.db, q.query(`SELECT tat FROM slack_budget WHERE key = ${q.add(key)}`));
    return { taken: false, openAt: int(row?.tat) - toleranceMs };
  }

  async returnSlot(key: string, intervalMs: number): Promise<void> {
    const p = params(this.db);
    await this.db.rows(
      p.query(
        `UPDATE slack_budget SET tat = tat - ${p.add(intervalMs)} WHERE key = ${p.add(key)} RETURNING key`,
      ),
    );
  }

  async holdSlots(key: string, tat: number): Promise<void> {
    const p = params(this.db);
    const sql =
      `INSERT INTO slack_budget (key, tat) VALUES (${p.add(key)}, ${p.add(tat)}) ` +
      'ON CONFLICT (key) DO UPDATE SET tat = excluded.tat ' +
      'WHERE slack_budget.tat < excluded.tat RETURNING key';
    await this.db.rows(p.query(sql));
  }

  async reportDemand(
    key: string,
    replica: string,
    consumers: number,
    ttlMs: number,
    now: number,
  ): Promise<DemandTotals> {
    const p = params(this.db);
    const upsert =
      'INSERT INTO slack_budget_demand (key, replica, consumers, expires_at) ' +
      `VALUES (${p.add(key)}, ${p.add(replica)}, ${p.add(consumers)}, ${p.add(now + ttlMs)}) ` +
      'ON CONFLICT (key, replica) DO UPDATE SET consumers = excluded.consumers, expires_at = excluded.expires_at ' +
      'RETURNING key';
    await this.db.rows(p.query(upsert));
    // Rows of replicas that stopped reporting (gone, or idle) no longer count, and are dropped.
    const d = params(this.db);
    await this.db.rows(
      d.query(
        `DELETE FROM slack_budget_demand WHERE key = ${d.add(key)} AND expires_at <= ${d.add(now)} RETURNING key`,
      ),
    );
    const q = params(this.db);
    const row = await first(
      this.db,
      q.query(
        'SELECT SUM(consumers) AS consumers, COUNT(*) AS replicas FROM slack_budget_demand ' +
          `WHERE key = ${q.add(key)} AND expires_at > ${q.add(now)}`,
      ),
    );
    return { consumers: int(row?.consumers), replicas: int(row?.replicas) };
  }
}
