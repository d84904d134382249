/**
 * A change whose apply a dead replica left behind is settled by housekeeping
 * (recovery reads the API, never writes again). When the read shows the
 * write landed, the change is followed up in its thread as a clicked one is:
 * whoever confirmed a scale learns whether the fleet got there, even though
 * the replica that sent the write is gone. When the read does not show it,
 * nothing is followed: there is nothing to follow yet. A follow-up cut short
 * by its replica stopping (a deploy mid-rollout) is resumed by the next one.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { current, shown, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;

const SCALE = 'armada scale dev duel --type cloud --min 2 --max 30';
const BEFORE = { minReplicas: 0, bufferSize: 2, maxReplicas: 20 };
const AFTER = { minReplicas: 2, bufferSize: 2, maxReplicas: 30 };

/** Leaves the previewed change as a replica that died mid-apply does: claimed, its lease lapsed. */
async function dieMidApply(): Promise<string> {
  const { store } = h.running.core;
  const [change] = await store.listChanges({ status: ['pending'], limit: 1 });
  if (!change) throw new Error('no pending change');
  const now = Date.now();
  await store.transitionChange(
    change.id,
    ['pending'],
    'applying',
    { confirmedBy: ALICE.id, applyingOwner: 'dead-replica', applyingSince: now },
    { now },
  );
  return change.id;
}

/** Thread replies under `parent`, as posted. */
const threadTexts = (ts: string) =>
  h.slack
    .callsTo('chat.postMessage')
    .filter((c) => c.body.thread_ts === ts)
    .map((c) => String(c.body.text ?? ''));

describe('a dead apply settled by housekeeping', () => {
  beforeEach(async () => {
    h = await startBotHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  it("the dead replica's write landed: recovery marks it done and follows the scale in the thread", async () => {
    await h.slash(SCALE);
    const preview = h.lastMessage();
    const id = await dieMidApply();
    // The write the dead replica sent, as the API received it.
    await h.running.core.api.client.setDistribution(
      { kind: 'Armada', env: 'dev', name: 'duel', type: 'cloud' },
      BEFORE,
      AFTER,
    );

    await h.running.core.housekeepNow();
    expect((await h.running.core.store.getChange(id))?.status).toBe('succeeded');
    expect(shown(current(h, preview))).toMatch(/^Done/);
    await waitForThreadReply(h, preview, /Armada duel scaled: Synced/);
    // One write: the one the dead replica sent.
    expect(h.sim.countRequests('PATCH', '/api/armada/v1/environments/dev/armadas')).toBe(1);
  });

  it('the write never landed: outcome unknown, and no follow-up of a change that is not there', async () => {
    await h.slash(SCALE);
    const preview = h.lastMessage();
    const id = await dieMidApply();

    await h.running.core.housekeepNow();
    await h.settle();
    const change = await h.running.core.store.getChange(id);
    expect(change?.status).toBe('applying');
    expect(threadTexts(preview.ts).filter((t) => /scaled/.test(t))).toEqual([]);
    expect(h.sim.countRequests('PATCH', '/api/armada/v1/environments/dev/armadas')).toBe(0);
  });
});

describe('a follow-up cut short by a restart', () => {
  // The simulator's time stands still until the test moves it: the rollout does not move, so
  // the click's follow-up is still under way when the replica stops.
  const simClock = new ManualClock(Date.now());
  let r: BotHarness;
  beforeEach(async () => {
    r = await startBotHarness({ simClock, resumeFollowAfterMs: 0 });
  });
  afterEach(async () => {
    await r.stop();
  });

  it('is resumed by the next replica, says so once, and ends in the thread', async () => {
    await r.slash('armada image dev duel game-server:1.1.0');
    const preview = r.lastMessage();
    await r.click(preview, CHANGE_ACTIONS.confirm);
    const [change] = await r.running.core.store.listChanges({ status: ['succeeded'] });
    // The follow-up polls and sees the fleet not there yet.
    await r.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.body.thread_ts === preview.ts &&
        /Progress/.test(String(c.body.text)),
      { timeoutMs: 5000 },
    );
    expect(change?.followState).toBe('due');

    // A deploy: the replica stops mid-follow-up, and a new one starts on the same store.
    await r.restart();
    await r.running.core.housekeepNow();
    await r.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.body.thread_ts === preview.ts &&
        /Following this change again/.test(String(c.body.text)),
      { timeoutMs: 5000 },
    );
    // The fleet gets there: the resumed follow-up says so where the first one would have.
    simClock.advance(60_000);
    await waitForThreadReply(
      r,
      preview,
      /Done: Armada duel \(dev\): every game server runs game-server:1.1.0/,
    );
    await r.running.bot.followUpsDone();
    await r.running.core.housekeepNow();
    const texts = r.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.thread_ts === preview.ts)
      .map((c) => String(c.body.text ?? ''));
    expect(texts.filter((t) => t.includes('Following this change again'))).toHaveLength(1);
    const stored = await r.running.core.store.getChange(change?.id ?? '');
    expect(stored?.followState).toBe('over');
  });
});
