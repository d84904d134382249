/**
 * The embedded store refuses a damaged file at start (issue 9, defect 8):
 * SQLite's quick_check runs when the file is opened, and a partly corrupted
 * or foreign file stops the start with a message naming the file, what is
 * wrong and what to do, instead of a bot that answers health checks and
 * loses changes.
 */

import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { CORRUPT } from '../../src/store/errors.js';
import { SQLITE_FILE_NAME } from '../../src/store/sqlite-migrate.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * A store with enough audit rows to span many pages, closed (WAL checkpointed into the file), and
 * the number of a page in the middle of those rows (empty tables' root pages hold nothing to garble).
 */
async function filledStore(): Promise<{ file: string; pageSize: number; pages: number; auditPage: number }> {
  dir = await mkdtemp(join(tmpdir(), 'harbor-integrity-'));
  const store = await openSqliteStore({ dataDir: dir });
  for (let i = 0; i < 400; i += 1) {
    await store.appendAudit({ at: i, actor: 'U1', action: 'request', detail: { text: 'x'.repeat(200) } });
  }
  const pageSize = store.db.pragma('page_size', { simple: true }) as number;
  const pages = store.db.pragma('page_count', { simple: true }) as number;
  const auditPages = store.db
    .prepare("SELECT pageno FROM dbstat WHERE name = 'audit' AND pagetype = 'leaf' ORDER BY pageno")
    .all() as { pageno: number }[];
  const auditPage = auditPages[Math.floor(auditPages.length / 2)]?.pageno ?? Math.floor(pages / 2) + 1;
  await store.close();
  return { file: join(dir, SQLITE_FILE_NAME), pageSize, pages, auditPage };
}

it('opens an intact file', async () => {
  const { pages } = await filledStore();
  expect(pages).toBeGreaterThan(10);
  const store = await openSqliteStore({ dataDir: dir as string });
  expect((await store.queryAudit({})).length).toBe(400);
  await store.close();
});

it('refuses a file with a garbled page, naming the file and what to do', async () => {
  const { file, pageSize, auditPage } = await filledStore();
  // Scribble over the middle of one page of audit rows in the middle of the file: the header still
  // reads fine and SELECT 1 still answers, as with a torn write or a bad disk block.
  const handle = await open(file, 'r+');
  await handle.write(Buffer.alloc(pageSize / 2, 0xa5), 0, pageSize / 2, (auditPage - 1) * pageSize + 64);
  await handle.close();

  const opening = openSqliteStore({ dataDir: dir as string });
  await expect(opening).rejects.toMatchObject({ code: CORRUPT });
  await expect(openSqliteStore({ dataDir: dir as string })).rejects.toThrow(
    new RegExp(
      `the SQLite store ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(.+\\)\\. Harbormaster will not run on it`,
    ),
  );
  await expect(openSqliteStore({ dataDir: dir as string })).rejects.toThrow(/restore it from a backup/);
});

it('refuses a file that is not a database at all', async () => {
  dir = await mkdtemp(join(tmpdir(), 'harbor-integrity-'));
  await writeFile(join(dir, SQLITE_FILE_NAME), 'this is a text file, not SQLite '.repeat(200));
  await expect(openSqliteStore({ dataDir: dir })).rejects.toMatchObject({
    code: CORRUPT,
    message: expect.stringMatching(/is damaged \(file is not a database\)/),
  });
});
