/**
 * Issue 39: a worker replica (HARBOR_ROLE=worker) resumes a follow-up the
 * Slack replica was cut short on, and the Slack replica draws its steps from
 * the outbox. The Slack replica confirms a rollout and starts following it;
 * its follow-ups stop (as at shutdown: they stay due) while it keeps serving
 * Slack; the worker, on its own clock, resumes the follow-up, sees the fleet
 * get there and ends it; the Slack replica, which followed nothing more,
 * writes the thread from the worker's events. On SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { storeKinds } from '../../changes/harness.js';
import { current, shown } from './harness-extras.js';
import { type BotAndWorker, followUpsOn, startBotAndWorker } from './worker-harness.js';

describe.each(storeKinds)('a worker replica on %s', (kind) => {
  let r: BotAndWorker | undefined;
  afterEach(async () => {
    await r?.stop();
    r = undefined;
  });

  it('resumes a follow-up the Slack replica was cut short on; the Slack replica draws its steps', async () => {
    // The simulator's time stands still until the test moves it: the rollout does not move, so
    // the click's follow-up is still under way when the Slack replica's follow-ups stop.
    const simClock = new ManualClock(Date.now());
    r = await startBotAndWorker(kind, { simClock });
    const { bot, worker, clock, logs } = r;
    const { store } = bot.running.core;

    await bot.slash('armada image dev duel game-server:1.1.0');
    const preview = bot.lastMessage();
    await bot.click(preview, CHANGE_ACTIONS.confirm);
    const [change] = await store.listChanges({ status: ['succeeded'] });
    if (!change) throw new Error('the rollout did not apply');
    await bot.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.body.thread_ts === preview.ts &&
        /Progress/.test(String(c.body.text)),
      { timeoutMs: 5000 },
    );
    // The Slack replica's follow-ups stop, as at shutdown (it follows nothing from here on); it
    // keeps serving Slack. The follow-up stays due.
    await bot.running.core.engine.stop();
    expect((await store.getChange(change.id))?.followState).toBe('due');
    const seqBefore = await store.lastOutboxSeq();

    // The worker's pass, once the follow-up lease has lapsed on its clock: it resumes the follow-up.
    // The Slack replica stamped that lease on real time, which ran on while it started and confirmed
    // (seconds on a loaded machine): the worker's clock first catches up with it.
    await clock.advance(Math.max(0, Date.now() - clock.now()) + 31_000);
    await worker.core.housekeepNow();
    // The fleet gets there; the worker's follow-up sees it on its next poll and ends.
    await simClock.advance(60_000);
    await followUpsOn(clock, worker.core.engine);
    expect((await store.getChange(change.id))?.followState).toBe('over');
    // (Optional endpoints the simulator does not serve are probed at info level.)
    expect(logs.lines.filter((l) => /"level":"(warn|error)"/.test(l))).toEqual([]);

    // Every event about it was the worker's, heard by nobody there.
    const rows = await store.readOutbox(seqBefore, 100);
    expect(new Set(rows.map((x) => [x.publisher, x.toldHere].join(':')))).toEqual(
      new Set(['worker-1:false']),
    );
    expect(rows.map((x) => (x.payload as { kind: string }).kind)).toEqual(
      expect.arrayContaining(['resumed', 'step', 'followed']),
    );

    // The Slack replica reads the outbox and draws the steps the worker took.
    await bot.running.core.housekeepNow();
    await bot.running.bot.followUpsDone();
    const thread = bot.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.thread_ts === preview.ts)
      .map((c) => String(c.body.text ?? ''));
    expect(thread.filter((t) => t.includes('Following this change again'))).toHaveLength(1);
    expect(thread).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Done: Armada duel \(dev\): every game server runs game-server:1.1.0/),
      ]),
    );
    expect(shown(current(bot, preview))).toMatch(/^Done/);
  });
});
