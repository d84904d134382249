/** The audit log in SQL: appends and queries only (the schema refuses UPDATE and DELETE). */

import { auditInsert } from './columns.js';
import { auditSelect } from './filters.js';
import { insertSql } from './sql.js';
import { first, params, type SqlRunner } from './sql-runner.js';
import type { AuditEntry, AuditFilter, AuditStore } from './types.js';

export class SqlAuditStore implements AuditStore {
  constructor(private readonly db: SqlRunner) {}

  async appendAudit(entry: AuditEntry): Promise<AuditEntry> {
    const p = params(this.db);
    const row = await first(this.db, p.query(insertSql('audit', auditInsert(entry), p)));
    return this.db.decode.audit(row);
  }

  async queryAudit(filter: AuditFilter): Promise<AuditEntry[]> {
    const p = params(this.db);
    return (await this.db.rows(p.query(auditSelect(filter, p)))).map((row) => this.db.decode.audit(row));
  }
}
