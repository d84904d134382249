/**
 * Issue 39: Slack's drawing state leaves the changes table. A database whose
 * changes still carry their message ts, ask ts and drawn status keeps them,
 * moved to Slack's own table (`slack_change_messages`), once migrated; the
 * change rows keep none of it.
 */
import { expect, it } from '@jest/globals';
import { silentLogger } from '../../src/runtime/logger.js';
import { SQLITE_MIGRATIONS } from '../../src/store/migrations/migration.js';
import { migrateSqlite, openSqliteDatabase } from '../../src/store/sqlite-migrate.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

it('moves existing message ts, ask ts and drawn status to Slack’s table (SQLite)', async () => {
  const db = openSqliteDatabase(':memory:');
  // The schema as it was before: every migration up to the outbox, recorded as applied.
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT)',
  );
  for (const m of SQLITE_MIGRATIONS.filter((m) => m.version < 15)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
  }
  const insert = db.prepare(
    `INSERT INTO changes (id, operation, request, preview, requester, workspace, channel, message_ts, ask_ts, drawn_status, status, created_at, updated_at, expires_at, version)
     VALUES (?, 'vessel.delete', '{}', '{}', 'U1', 'T1', 'C1', ?, ?, ?, 'succeeded', 1, 1, 2, 1)`,
  );
  insert.run('drawn', '1.1', '1.2', 'succeeded');
  insert.run('unposted', null, null, null);

  expect(migrateSqlite(db, silentLogger)).toContain(15);
  const store = new SqliteStore(db, silentLogger);
  const messages = await store.changeMessages(['drawn', 'unposted']);
  expect([...messages.values()]).toEqual([
    { changeId: 'drawn', channel: 'C1', messageTs: '1.1', askTs: '1.2', drawnStatus: 'succeeded' },
  ]);
  const columns = (db.prepare('PRAGMA table_info(changes)').all() as { name: string }[]).map((c) => c.name);
  expect(columns).not.toEqual(expect.arrayContaining(['message_ts']));
  expect(columns.filter((c) => ['message_ts', 'ask_ts', 'drawn_status'].includes(c))).toEqual([]);
  expect((await store.getChange('drawn'))?.origin).toEqual({ workspace: 'T1', channel: 'C1' });
  await store.close();
});
