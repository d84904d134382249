/**
 * PostgreSQL schemas for tests, each handed out empty and fully migrated.
 * Creating and migrating a schema costs ~70 ms and dropping it ~20 ms; a
 * test file taking one per test spent most of its time there. Here a schema
 * given back is emptied (every row deleted, identities restarted: ~3 ms) and
 * handed out again, so a file migrates as many schemas as it has tests
 * running at once, and each test still starts from an empty, fully migrated
 * store. A schema whose structure a test changed (tables, columns, indexes,
 * constraints, triggers, functions) is dropped instead of reused.
 */

import pg from 'pg';
import { silentLogger } from '../../src/runtime/logger.js';
import { migratePostgres } from '../../src/store/postgres-migrate.js';

/** What a schema's structure is, as one text: equal texts, same structure. */
const STRUCTURE_SQL = `
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1)
SELECT md5(coalesce(string_agg(item, E'\\n' ORDER BY item), '')) AS structure FROM (
  SELECT concat_ws(' ', 'class', c.relname, c.relkind) AS item
    FROM pg_class c, ns WHERE c.relnamespace = ns.oid
  UNION ALL
  SELECT concat_ws(' ', 'column', c.relname, a.attname, a.atttypid, a.atttypmod, a.attnotnull, a.attidentity, d.adbin)
    FROM ns, pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = ns.oid AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
  SELECT concat_ws(' ', 'index', c.relname, i.indkey, i.indisunique, i.indexprs, i.indpred)
    FROM ns, pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = ns.oid
  UNION ALL
  SELECT concat_ws(' ', 'constraint', k.conname, k.contype, k.conkey, k.confrelid, k.conbin)
    FROM pg_constraint k, ns WHERE k.connamespace = ns.oid
  UNION ALL
  SELECT concat_ws(' ', 'trigger', c.relname, t.tgname, t.tgtype, t.tgenabled, t.tgfoid)
    FROM ns, pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE c.relnamespace = ns.oid AND NOT t.tgisinternal
  UNION ALL
  SELECT concat_ws(' ', 'function', p.proname, md5(p.prosrc)) FROM pg_proc p, ns WHERE p.pronamespace = ns.oid
) items`;

/** The statements that empty a schema of its rows but keep what the migrations recorded. */
const RESET_PLAN_SQL = `
SELECT
  (SELECT coalesce(array_agg(quote_ident(tablename) ORDER BY tablename), '{}') FROM pg_tables
    WHERE schemaname = $2 AND tablename <> 'schema_migrations') AS tables,
  (SELECT coalesce(array_agg(DISTINCT quote_ident(c.relname)), '{}') FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
    WHERE c.relnamespace = $1::regnamespace AND NOT t.tgisinternal) AS triggered,
  (SELECT coalesce(array_agg(quote_ident(sequencename)), '{}') FROM pg_sequences
    WHERE schemaname = $2) AS sequences`;

/** The tables to empty (all but schema_migrations), those with triggers to pause, the sequences to restart. */
interface ResetPlan {
  tables: string[];
  triggered: string[];
  sequences: string[];
}

export class TestSchemas {
  private readonly admin: pg.Pool;
  private readonly free: string[] = [];
  private readonly all = new Set<string>();
  /** The structure a freshly migrated schema has, and how to empty one (read from the first one). */
  private structure: string | undefined;
  private plan: ResetPlan = { tables: [], triggered: [], sequences: [] };
  private count = 0;

  /** `prefix` names the schemas (`<prefix>_<pid>_<time>_<n>`): a plain lowercase identifier. */
  constructor(
    databaseUrl: string,
    private readonly prefix: string,
  ) {
    this.admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  }

  /** A schema no other test holds, migrated and empty; give it back once its stores are closed. */
  async take(): Promise<string> {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    this.count += 1;
    const schema = `${this.prefix}_${process.pid}_${Date.now().toString(36)}_${this.count}`;
    this.all.add(schema);
    await migratePostgres(this.admin, schema, silentLogger);
    if (this.structure === undefined) {
      this.structure = await this.structureOf(schema);
      this.plan = await this.resetPlan(schema);
    }
    return schema;
  }

  /** Takes `schema` back: emptied for the next test, or dropped when its structure changed. */
  async give(schema: string): Promise<void> {
    if (!this.all.has(schema) || this.free.includes(schema)) throw new Error(`${schema} is not out`);
    if ((await this.structureOf(schema)) !== this.structure) {
      await this.drop(schema);
      return;
    }
    await this.reset(schema);
    this.free.push(schema);
  }

  /** Drops every schema handed out and closes the connection. */
  async end(): Promise<void> {
    for (const schema of [...this.all]) await this.drop(schema);
    this.free.length = 0;
    await this.admin.end();
  }

  /** The schema's structure and the migrations it records. */
  private async structureOf(schema: string): Promise<string> {
    const [structure, migrations] = await Promise.all([
      this.admin.query<{ structure: string }>(STRUCTURE_SQL, [schema]),
      this.admin.query<{ versions: string }>(
        `SELECT string_agg(version || ' ' || name, ',' ORDER BY version) AS versions FROM ${schema}.schema_migrations`,
      ),
    ]);
    return `${structure.rows[0]?.structure} ${migrations.rows[0]?.versions}`;
  }

  /** What a reset of a schema of this structure touches (the same for every schema of it). */
  private async resetPlan(schema: string): Promise<ResetPlan> {
    const result = await this.admin.query<ResetPlan>(RESET_PLAN_SQL, [schema, schema]);
    return result.rows[0] ?? { tables: [], triggered: [], sequences: [] };
  }

  /** Deletes every row (the triggers that guard the audit log paused meanwhile) and restarts every sequence. */
  private async reset(schema: string): Promise<void> {
    const { tables, triggered, sequences } = this.plan;
    const q = (name: string) => `${schema}.${name}`;
    // One round trip and one implicit transaction (several statements in one simple query): nobody
    // sees the triggers off, and a failure undoes it all.
    await this.admin.query(
      [
        ...triggered.map((t) => `ALTER TABLE ${q(t)} DISABLE TRIGGER USER`),
        ...tables.map((t) => `DELETE FROM ${q(t)}`),
        ...triggered.map((t) => `ALTER TABLE ${q(t)} ENABLE TRIGGER USER`),
        ...sequences.map((s) => `ALTER SEQUENCE ${q(s)} RESTART`),
      ].join(';\n'),
    );
  }

  private async drop(schema: string): Promise<void> {
    await this.admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    this.all.delete(schema);
  }
}
