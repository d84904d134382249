/**
 * Issue 22.1: three replicas on one store, twelve tails started on them in
 * turn, the Slack stand-in enforcing Tier 3 (50 chat.update a minute for the
 * workspace) on the tails' ManualClock. Each replica pacing its tails as if
 * it were alone made 86 edits a minute and drew 429s; the budget is the
 * workspace's, so together they stay within it, every tail gets its share
 * whichever replica runs it, and a change message sent meanwhile is drawn
 * from the same budget, ahead of the tails. SQLite (one file) and PostgreSQL.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { freshSchema, pgUrl, storeKinds } from '../../changes/harness.js';
import {
  busiestMinute,
  type ReplicaStore,
  startTailReplicas,
  type TailReplicas,
  TIER3_PER_MINUTE,
  updatesByTail,
} from '../../slack/tails/replicas.js';

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

const REPLICAS = 3;
const TAILS = 12;

describe.each(storeKinds)('tails over %s replicas share the workspace budget', (kind) => {
  let r: TailReplicas | undefined;
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    await r?.stop();
    await cleanup();
  });

  it('stays within Tier 3 with no 429, serves every tail fairly and counts change messages in it', async () => {
    let store: ReplicaStore = { kind: 'sqlite' };
    if (kind === 'postgres') {
      const db = await pgStore();
      cleanup = db.drop;
      store = { kind: 'postgres', databaseUrl: db.url };
    }
    r = await startTailReplicas({ replicas: REPLICAS, store, extraVessels: TAILS });
    const replicas = r;
    const vessels = Array.from({ length: TAILS }, (_, i) => `load-${i}`);
    await replicas.followRoundRobin(vessels);
    const tails = await replicas.bots[0]?.tails();
    // Round-robin: every replica runs some of the twelve (about four; another replica's orphan scan
    // may take a tail between its record and its lease, which is how tails start, see tails/service.ts).
    const runningHere = replicas.bots.map((b) => b.running.tails.runningHere().length);
    expect(runningHere.reduce((a, b) => a + b, 0)).toBe(TAILS);
    expect(Math.min(...runningHere)).toBeGreaterThanOrEqual(2);

    await replicas.firehose(vessels, 40_000, { stepMs: 500 });
    // A person's change on the second replica, while the tails keep every replica busy.
    const second = replicas.bots[1];
    if (!second) throw new Error('no second replica');
    await second.slash('armada image dev duel game-server:1.1.0');
    await replicas.settle(second);
    const preview = replicas.slack
      .channelMessages(TEST_CHANNEL.id)
      .find((m) => (m.text ?? '').includes('game-server:1.1.0'));
    if (!preview)
      throw new Error(
        `no preview was posted: ${JSON.stringify(replicas.slack.rateLimited.slice(-3))} ${JSON.stringify(replicas.slack.calls.slice(-4).map((c) => [c.method, c.status, String(c.body.text ?? '').slice(0, 60)]))} ${JSON.stringify(second.logs.lines.slice(-5))}`,
      );
    await second.click(preview, CHANGE_ACTIONS.confirm);
    // And its follow-up's first step: the bot posts it from its own clock, and posted during the
    // firehose below it took a second of the channel from a tail at a moment set by real time.
    await replicas.settle(second, () => replicas.slack.thread(TEST_CHANNEL.id, preview.ts).length > 0);
    // The preview and its rewrites went out through the same budget (and count in the minutes below);
    // that a person goes ahead of waiting tails is shown at the budget's level (test/slack-budget/shared-budget.test.ts).
    const rewritten = replicas.slack.callsTo('chat.update').filter((c) => c.body.ts === preview.ts);
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.every((c) => c.status === 200)).toBe(true);

    const from = replicas.clock.now();
    await replicas.firehose(vessels, 80_000, { stepMs: 500 });

    expect(replicas.slack.rateLimited).toEqual([]);
    expect(busiestMinute(replicas.slack.calls, 'chat.update')).toBeLessThanOrEqual(TIER3_PER_MINUTE);
    const counts = [...updatesByTail(replicas.slack.calls, tails ?? [], from).values()];
    expect(counts).toHaveLength(TAILS);
    // 80 s at about 45 edits a minute over twelve tails: about five each, whichever replica runs it.
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(3);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(Math.max(...counts) / 2);
  }, 120_000);
});
