/** A PostgreSQL schema of its own for an e2e test's bot (and replicas) to run in. */
import pg from 'pg';
import { freshSchema, pgUrl } from '../../changes/harness.js';

/** A fresh PostgreSQL schema, as a DATABASE_URL whose search_path names it. */
export async function pgStore(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { schema, drop } = freshSchema();
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(pgUrl as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop };
}
