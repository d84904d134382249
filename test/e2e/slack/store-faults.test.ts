/**
 * What the bot says when its own database fails (issue 9, defect 8):
 * /healthz checks that the store takes a write (a full database still
 * answers SELECT 1), and a click the store cannot serve is answered with
 * "the bot's database is unavailable", not "internal error".
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import type { SqliteStore } from '../../../src/store/sqlite-store.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { get } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Fills the bot's SQLite file to a page limit, as a full disk would leave it: no room for one more row. */
function fillToTheBrim(store: SqliteStore): void {
  const pages = store.db.pragma('page_count', { simple: true }) as number;
  store.db.pragma(`max_page_count = ${pages + 2}`);
  const insert = store.db.prepare("INSERT INTO leases (key, owner, expires_at) VALUES (?, 'filler', 0)");
  for (let i = 0; ; i += 1) {
    try {
      insert.run(`filler:${i.toString().padStart(40, '0')}`);
    } catch (err) {
      expect((err as { code?: string }).code).toBe('SQLITE_FULL');
      return;
    }
  }
}

it('/healthz reports a full database as unwritable (503), though it still answers reads', async () => {
  expect(JSON.parse((await get(h, '/healthz')).text)).toMatchObject({ store: 'ok' });
  const store = h.running.core.store as SqliteStore;
  fillToTheBrim(store);
  expect(store.db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
  const res = await get(h, '/healthz');
  expect(res.status).toBe(503);
  expect(JSON.parse(res.text)).toEqual({ ready: false, slack: 'connected', store: 'unwritable' });
});

it('a click the database cannot serve is answered "the bot\'s database is unavailable"', async () => {
  await h.slash('promote game-server:1.1.0 from dev to staging');
  const preview = h.lastMessage();
  // The store goes away under the running bot, as a lost database would.
  await h.running.core.store.close();
  await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
  const told = h.ephemeralTexts(ALICE).at(-1) ?? '';
  expect(told).toMatch(/^The bot's database is unavailable just now \(error id [0-9a-f]{8}\)/);
  expect(told).not.toMatch(/internal error/);
  expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);
});
