/**
 * Issue 39: a worker replica (HARBOR_ROLE=worker: the same binary with Slack
 * off) runs the lifecycle for changes requested on a Slack replica, and the
 * Slack replica draws what it did from the outbox. Here a Slack replica's
 * apply dies mid-way (its write landed); the worker recovers the change,
 * follows it up and claims the expiry of another request; the bot, which did
 * none of it, redraws the messages and writes the thread from the worker's
 * events. On SQLite (one file, two stores) and PostgreSQL.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { type RunningWorker, startWorker } from '../../../src/startup/start-worker.js';
import { storeKinds } from '../../changes/harness.js';
import { ALICE, type BotHarness, e2eConfig, startBotHarness } from './bot-harness.js';
import { current, shown } from './harness-extras.js';
import { pgStore } from './pg-schema.js';

const SCALE = 'armada scale dev duel --type cloud --min 2 --max 30';
const BEFORE = { minReplicas: 0, bufferSize: 2, maxReplicas: 20 };
const AFTER = { minReplicas: 2, bufferSize: 2, maxReplicas: 30 };

describe.each(storeKinds)('a worker replica on %s', (kind) => {
  let h: BotHarness | undefined;
  let w: RunningWorker | undefined;
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    await w?.stop();
    await h?.stop();
    await cleanup();
  });

  it('recovers, follows up and expires changes requested on a Slack replica, which draws what it did', async () => {
    const logs = createMemoryLogger();
    const clock = new ManualClock(Date.now());
    let databaseUrl: string | undefined;
    if (kind === 'postgres') {
      const db = await pgStore();
      databaseUrl = db.url;
      cleanup = db.drop;
    }
    // The bot reads the outbox when housekept (and, on PostgreSQL, when NOTIFY wakes it), not on a
    // timer; it keeps the real time (its Slack budget paces on it), the worker moves its own.
    h = await startBotHarness({ outboxClock: new ManualClock(), ...(databaseUrl ? { databaseUrl } : {}) });
    const bot = h;
    const config = await e2eConfig({
      slackApiUrl: 'http://127.0.0.1:9/unused',
      sim: bot.sim,
      dataDir: bot.dataDir,
      replicaId: 'worker-1',
      ...(databaseUrl ? { databaseUrl } : {}),
    });
    w = await startWorker({ ...config, role: 'worker' }, logs, {
      clock,
      follow: { pollMs: 10, timeoutMs: 10_000 },
    });
    const worker = w;

    // A scale confirmed on the Slack replica, whose process died mid-apply after its write landed.
    await bot.slash(SCALE);
    const preview = bot.lastMessage();
    const { store } = bot.running.core;
    const [scale] = await store.listChanges({ status: ['pending'], limit: 1 });
    if (!scale) throw new Error('no pending change');
    await store.transitionChange(
      scale.id,
      ['pending'],
      'applying',
      { confirmedBy: ALICE.id, applyingOwner: 'dead-replica', applyingSince: clock.now() },
      { now: clock.now() },
    );
    await bot.running.core.api.client.setDistribution(
      { kind: 'Armada', env: 'dev', name: 'duel', type: 'cloud' },
      BEFORE,
      AFTER,
    );
    // A request that waits for approval, to expire while nobody acts.
    await bot.slash('promote game-server:1.2.0 from dev to prod');
    const waiting = bot.lastMessage();
    const [asked] = await store.listChanges({ status: ['awaiting_approval'], limit: 1 });
    if (!asked) throw new Error('no change awaits approval');
    const seqBefore = await store.lastOutboxSeq();

    // The worker's pass: the dead apply recovered (a read, no second write) and followed up.
    await worker.core.housekeepNow();
    await worker.core.engine.followUpsDone();
    expect((await store.getChange(scale.id))?.status).toBe('succeeded');
    // The expiry, on the worker's clock.
    await clock.advance(asked.expiresAt - clock.now() + 1);
    await worker.core.housekeepNow();
    expect([
      (await store.getChange(asked.id))?.status,
      logs.lines.filter((l) => /failed|error/i.test(JSON.stringify(l))),
    ]).toEqual(['expired', []]);

    // Every event about them was the worker's, heard by nobody there.
    const rows = await store.readOutbox(seqBefore, 100);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => [r.publisher, r.toldHere].join(':')))).toEqual(
      new Set(['worker-1:false']),
    );
    expect(rows.map((r) => (r.payload as { kind: string }).kind)).toEqual(
      expect.arrayContaining(['closed', 'step', 'notices']),
    );
    // The bot reads the outbox (woken by NOTIFY on PostgreSQL; here asked at once) and draws.
    await bot.running.core.housekeepNow();
    await bot.running.bot.followUpsDone();
    expect(shown(current(bot, preview))).toMatch(/^Done/);
    const thread = bot.slack.callsTo('chat.postMessage').filter((c) => c.body.thread_ts === preview.ts);
    expect(thread.map((c) => String(c.body.text ?? ''))).toEqual(
      expect.arrayContaining([expect.stringMatching(/Armada duel scaled: Synced/)]),
    );
    expect(shown(current(bot, waiting))).toMatch(/^Expired/);
    // One write to the API: the dead replica's; the worker only read.
    expect(bot.sim.countRequests('PATCH', '/api/armada/v1/environments/dev/armadas')).toBe(1);
    // The recovery is audited as the worker's.
    const audit = await store.queryAudit({ changeId: scale.id, actions: ['recover'] });
    expect(audit.map((a) => a.actor)).toEqual(['worker-1']);
  });
});
