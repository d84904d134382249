/**
 * Two processes, one store: a child process (another replica) starts a tail
 * and follows it; it is SIGKILLed; the bot in this process notices the lapsed
 * lease on its scan, takes the tail over, says so in the thread and keeps
 * editing the same message. SQLite (a shared file) always; PostgreSQL too
 * when HARBOR_TEST_DATABASE_URL is set (else reported skipped by the harness).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { freshSchema, pgUrl, storeKinds } from '../../changes/harness.js';
import { startTailBot, type TailBot } from '../../slack/tails/e2e-bot.js';
import { spawnTailWorker, type TailWorker } from '../../slack/tails/fixtures/spawn-tail-worker.js';
import { BOB } from './bot-harness.js';
import { buttonIds, shown } from './harness-extras.js';

/**
 * Polls (real time) until `cond` holds: only for what the child process writes
 * into the shared store, which raises no event here.
 */
async function eventually(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await cond()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A PostgreSQL URL whose connections use a fresh schema (search_path in the startup options). */
async function pgStore(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { schema, drop } = freshSchema();
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(pgUrl as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop };
}

describe.each(storeKinds)('a tail whose replica is killed (%s store)', (kind) => {
  let h: TailBot | undefined;
  let worker: TailWorker | undefined;
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    worker?.child.kill('SIGKILL');
    await worker?.exited;
    await h?.stop();
    await cleanup();
  });

  it('is taken over by the surviving bot, which says so in the thread and keeps its message', async () => {
    let store: Record<string, unknown>;
    if (kind === 'postgres') {
      const db = await pgStore();
      store = { databaseUrl: db.url };
      cleanup = db.drop;
      h = await startTailBot({ replicaId: 'replica-bot', databaseUrl: db.url });
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'harbor-takeover-'));
      store = { dataDir: dir };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
      h = await startTailBot({ replicaId: 'replica-bot', dataDir: dir });
    }
    const bot = h;
    worker = spawnTailWorker({
      simUrl: bot.sim.url,
      simToken: bot.sim.token,
      slackApiUrl: bot.slack.apiUrl,
      store,
      replicaId: 'replica-child',
      channel: TEST_CHANNEL.id,
      env: 'dev',
      vessel: 'lobby-1',
    });
    const { tailId, messageTs, threadTs } = await worker.started;
    const leaseOwner = async () => (await bot.running.core.store.getLease(`tail:${tailId}`))?.owner;
    expect(await leaseOwner()).toBe('replica-child');
    await bot.sim.whenLogStreams(1);
    bot.sim.emitLogLines('dev', 'lobby-1', ['followed by the child']);
    // The child's refresh reaches the stand-in in this process: wait for that call.
    await bot.slack.waitFor(
      (c) =>
        c.body.ts === messageTs &&
        shown({ blocks: c.body.blocks as unknown[] }).includes('followed by the child'),
      { timeoutMs: 10_000 },
    );
    // …and its record of what the message shows (a takeover carries on from the record).
    await eventually(async () => {
      const state = (await bot.running.core.store.getTail(tailId))?.state as { seen?: number } | undefined;
      return state?.seen === 1;
    }, "the child's saved progress");

    worker.child.kill('SIGKILL');
    await worker.exited;
    // The bot's scans (every 5 s of its clock) find the lease lapsed 15 s after the child's last renewal.
    await bot.pumpUntil(async () => (await leaseOwner()) === 'replica-bot', 'the takeover', 1000);
    await bot.pumpUntil(
      () => bot.thread(threadTs).some((m) => shown(m).includes('Taken over by replica `replica-bot`')),
      'the takeover notice',
    );
    await bot.pumpUntil(() => bot.sim.openLogStreams() === 1, "the bot's log stream");
    bot.sim.emitLogLines('dev', 'lobby-1', ['followed by the bot']);
    await bot.pumpUntil(
      () => shown(bot.message(messageTs)).includes('followed by the bot'),
      "the bot's refresh",
    );
    const live = bot.message(messageTs);
    expect(shown(live)).toContain('followed by the child');
    expect(shown(live)).toContain('resumed by replica replica-bot');
    expect(shown(live)).toContain('live · 2 lines seen · 0 not shown');
    expect(buttonIds(live)).toEqual([TAIL_ACTIONS.stop]);

    await bot.click(live, TAIL_ACTIONS.stop, BOB);
    await bot.pumpUntil(
      async () => (await bot.running.core.store.getTail(tailId))?.status === 'stopped',
      'the stop',
    );
    expect(shown(bot.message(messageTs))).toContain('stopped by <@U0BOB> · 2 lines seen · 0 never shown');
  }, 60_000);
});
