/** Approvals in SQL: one row per (change, user), so a second click by the same approver adds nothing. */

import { first, params, type SqlRunner } from './sql-runner.js';
import type { ApprovalRecord, ApprovalStore } from './types.js';

export class SqlApprovalStore implements ApprovalStore {
  constructor(private readonly db: SqlRunner) {}

  async addApproval(approval: ApprovalRecord): Promise<boolean> {
    const p = params(this.db);
    const values = [
      approval.changeId,
      approval.userId,
      approval.decision,
      approval.at,
      approval.comment ?? null,
    ];
    const sql =
      `INSERT INTO approvals (change_id, user_id, decision, at, comment) VALUES (${values.map((v) => p.add(v)).join(', ')}) ` +
      'ON CONFLICT (change_id, user_id) DO NOTHING RETURNING change_id';
    return (await first(this.db, p.query(sql))) !== undefined;
  }

  async listApprovals(changeId: string): Promise<ApprovalRecord[]> {
    const p = params(this.db);
    const sql = `SELECT * FROM approvals WHERE change_id = ${p.add(changeId)} ORDER BY at, user_id`;
    return (await this.db.rows(p.query(sql))).map((row) => this.db.decode.approval(row));
  }

  async listApprovalsFor(changeIds: readonly string[]): Promise<Map<string, ApprovalRecord[]>> {
    const out = new Map<string, ApprovalRecord[]>(changeIds.map((id) => [id, []]));
    if (changeIds.length === 0) return out;
    const p = params(this.db);
    const sql = `SELECT * FROM approvals WHERE ${p.anyOf('change_id', [...out.keys()])} ORDER BY at, user_id`;
    for (const approval of (await this.db.rows(p.query(sql))).map((row) => this.db.decode.approval(row))) {
      out.get(approval.changeId)?.push(approval);
    }
    return out;
  }
}
