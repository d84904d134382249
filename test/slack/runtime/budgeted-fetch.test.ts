/**
 * The bot's own message calls draw from the workspace's shared budget
 * (issue 22.1): a chat.update waits for a slot the tails (or other replicas)
 * left, a 429 holds the gate for everyone, and calls that are not messages
 * go out as they are. A real store (SQLite file) and a ManualClock; the
 * network is a recording fetch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import type { FetchFunction } from '@slack/web-api';
import { ManualClock } from '../../../src/runtime/clock.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { budgetedFetch } from '../../../src/slack/runtime/budgeted-fetch.js';
import { StoreSlots } from '../../../src/slack-budget/shared-slots.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite-store.js';

let store: SqliteStore | undefined;
let dir: string | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function setUp(answer: { status: number; headers?: Record<string, string> } = { status: 200 }) {
  dir = mkdtempSync(join(tmpdir(), 'harbor-budgeted-fetch-'));
  store = await openSqliteStore({ dataDir: dir });
  const clock = new ManualClock();
  const slots = new StoreSlots({
    store,
    workspace: 'T1',
    replicaId: 'replica-1',
    clock,
    logger: silentLogger,
  });
  const sent: { method: string; at: number }[] = [];
  const network: FetchFunction = async (url) => {
    sent.push({ method: String(url).split('/').at(-1) ?? '', at: clock.now() });
    return new Response('{"ok":true}', { status: answer.status, headers: answer.headers ?? {} });
  };
  const fetch = budgetedFetch({ slots: async () => slots, clock, fetch: network });
  return { clock, slots, sent, fetch };
}

const update = { method: 'POST', body: 'channel=C1&ts=1.2&text=Done' };

it('sends a change message once the workspace gate has a slot, ahead of the tails', async () => {
  const { clock, slots, sent, fetch } = await setUp();
  // Tails (here, or on other replicas) have taken the burst and the person's extra slots too.
  while ((await slots.take('chat.update', 'C1', 'person')).taken);
  const call = fetch('https://slack.com/api/chat.update', update);
  await clock.whenSleeping();
  expect(sent).toEqual([]);
  await clock.advance(1334);
  await call;
  expect(sent).toEqual([{ method: 'chat.update', at: clock.now() }]);
  // The tails wait two slots longer than a person would.
  expect(await slots.take('chat.update', 'C1', 'tail')).toEqual({
    taken: false,
    retryAt: clock.now() + 3 * 1334,
  });
});

it('holds the gate for every replica when Slack answers 429, and lets other calls through', async () => {
  const { clock, slots, sent, fetch } = await setUp({ status: 429, headers: { 'retry-after': '20' } });
  await fetch('https://slack.com/api/chat.update', update);
  const at = clock.now();
  expect(await slots.take('chat.update', 'C1', 'person')).toEqual({ taken: false, retryAt: at + 20_000 });
  await fetch('https://slack.com/api/auth.test', { method: 'POST', body: '' });
  expect(sent.map((s) => s.method)).toEqual(['chat.update', 'auth.test']);
});
