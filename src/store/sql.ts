/**
 * The little SQL the two dialects disagree on: placeholders (`?` versus `$n`),
 * JSON casts and "column is one of these values". Everything else in the store
 * is the same statement text for SQLite and PostgreSQL.
 */

import type { ColumnValue } from './columns.js';

export type Dialect = 'sqlite' | 'postgres';
type Param = string | number | null | readonly string[];

/** A column of SqlParams.jsonRows: its name (a property of each row) and its type. */
export type JsonRowColumn = readonly [name: string, type: 'text' | 'int'];

export interface Query {
  sql: string;
  params: Param[];
}

/** Collects parameters while a statement is written left to right, handing out placeholders. */
export class SqlParams {
  readonly values: Param[] = [];

  constructor(private readonly dialect: Dialect) {}

  /** Adds a value and returns its placeholder (PostgreSQL JSON values are cast to JSONB). */
  add(value: Param, json = false): string {
    this.values.push(value);
    if (this.dialect === 'sqlite') return '?';
    return json ? `$${this.values.length}::jsonb` : `$${this.values.length}`;
  }

  /** `column IN (?, ?)` for SQLite, `column = ANY($n::text[])` for PostgreSQL (one plan for any list length). */
  oneOf(column: string, values: readonly string[]): string {
    if (this.dialect === 'postgres') return `${column} = ANY(${this.add(values)}::text[])`;
    return `${column} IN (${values.map((v) => this.add(v)).join(', ')})`;
  }

  /**
   * `column` is one of a list of any length, as one placeholder, so the statement text (and
   * SQLite's cached prepared statement) is the same for 1 id or 500: a JSON array read with
   * json_each in SQLite, a text array in PostgreSQL.
   */
  anyOf(column: string, values: readonly string[]): string {
    if (this.dialect === 'postgres') return `${column} = ANY(${this.add(values)}::text[])`;
    return `${column} IN (SELECT value FROM json_each(${this.add(JSON.stringify(values))}))`;
  }

  /**
   * The objects of `rows` as a table `alias` with these columns, bound as one placeholder, so a
   * statement writing many rows keeps one text (and one cached SQLite statement) for any number:
   * jsonb_to_recordset in PostgreSQL, json_each in SQLite. Missing properties read as NULL.
   */
  jsonRows(rows: readonly object[], columns: readonly JsonRowColumn[], alias: string): string {
    const json = this.add(JSON.stringify(rows));
    if (this.dialect === 'postgres') {
      const types = columns.map(([name, type]) => `${name} ${type === 'int' ? 'BIGINT' : 'TEXT'}`);
      return `jsonb_to_recordset(${json}::jsonb) AS ${alias}(${types.join(', ')})`;
    }
    const fields = columns.map(([name]) => `json_extract(value, '$.${name}') AS ${name}`);
    return `(SELECT ${fields.join(', ')} FROM json_each(${json})) AS ${alias}`;
  }

  /** The finished statement. */
  query(sql: string): Query {
    return { sql, params: this.values };
  }
}

/** `INSERT INTO table (...) VALUES (...) RETURNING *`. */
export function insertSql(table: string, values: ColumnValue[], p: SqlParams): string {
  const columns = values.map((v) => v.column).join(', ');
  const marks = values.map((v) => p.add(v.value, v.json)).join(', ');
  return `INSERT INTO ${table} (${columns}) VALUES (${marks}) RETURNING *`;
}

/** `UPDATE table SET version = version + 1, ...`; the caller appends WHERE and RETURNING. */
export function updateSql(table: string, sets: ColumnValue[], p: SqlParams): string {
  const assignments = [
    'version = version + 1',
    ...sets.map((s) => `${s.column} = ${p.add(s.value, s.json)}`),
  ];
  return `UPDATE ${table} SET ${assignments.join(', ')}`;
}

/** ` WHERE a AND b`, or nothing for no conditions. */
export function whereSql(conditions: readonly string[]): string {
  return conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
}
