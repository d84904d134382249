/**
 * What every part of the SQL store runs on: one statement at a time against
 * SQLite or PostgreSQL, with that driver's row decoder. The parts (changes,
 * approvals, audit, releases, tails, leases, request keys) share the
 * database and these few helpers, and nothing else.
 */

import type { ColumnValue } from './columns.js';
import type { Row, RowDecoder } from './rows.js';
import { type Dialect, type Query, SqlParams, updateSql, whereSql } from './sql.js';

export interface SqlRunner {
  readonly dialect: Dialect;
  /** Turns this driver's rows into records. */
  readonly decode: RowDecoder;
  /** Runs one statement; returns its rows (the RETURNING rows for writes, [] when none). */
  rows(query: Query): Promise<Row[]>;
}

/** A fresh parameter list in the runner's placeholder style. */
export function params(db: SqlRunner): SqlParams {
  return new SqlParams(db.dialect);
}

/** The first row the statement returns, if any. */
export async function first(db: SqlRunner, query: Query): Promise<Row | undefined> {
  return (await db.rows(query))[0];
}

/** The row of `table` with that id. */
export async function byId(db: SqlRunner, table: string, id: string): Promise<Row | undefined> {
  const p = params(db);
  return first(db, p.query(`SELECT * FROM ${table} WHERE id = ${p.add(id)}`));
}

/** A versioned update by id, guarded by expectVersion when given; the updated row, or undefined. */
export async function updateById(
  db: SqlRunner,
  table: string,
  sets: ColumnValue[],
  id: string,
  expectVersion?: number,
): Promise<Row | undefined> {
  const p = params(db);
  const head = updateSql(table, sets, p);
  const conditions = [`id = ${p.add(id)}`];
  if (expectVersion !== undefined) conditions.push(`version = ${p.add(expectVersion)}`);
  return first(db, p.query(`${head}${whereSql(conditions)} RETURNING *`));
}
