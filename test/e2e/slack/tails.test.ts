/**
 * `/harbor logs <env> <vessel> --follow` end to end: the real bot (startBot),
 * the API simulator and the Slack stand-in, over HTTP. The tails' clock is a
 * ManualClock the tests move; lines come from the simulator (emitLogLines).
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { createGameFabricClient } from '../../../src/gamefabric/client.js';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL, TEST_TEAM } from '../../../src/workspace/identity.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { startTailBot, type TailBot } from '../../slack/tails/e2e-bot.js';
import { createStandaloneVessel } from '../../support/standalone-vessel.js';
import { ALICE, BOB } from './bot-harness.js';
import { buttonIds, shown } from './harness-extras.js';

let h: TailBot;
beforeEach(async () => {
  h = await startTailBot();
});
afterEach(async () => {
  await h.stop();
});

/** Starts a follow and returns the thread parent and the tail message. */
async function follow(text: string): Promise<{ parent: StoredMessage; tail: () => StoredMessage }> {
  const ack = await h.slash(text);
  expect(ack.status).toBe(200);
  await h.settle();
  const [record] = await h.tails();
  if (!record?.threadTs || !record.messageTs) throw new Error('no tail was recorded');
  const messageTs = record.messageTs;
  return { parent: h.message(record.threadTs), tail: () => h.message(messageTs) };
}

it('follows a vessel in a new thread, shows new lines escaped, and Stop leaves the final state with counts', async () => {
  const { parent, tail } = await follow('logs dev lobby-1 --follow');
  expect(parent.threadTs).toBeUndefined();
  expect(shown(parent)).toContain('Tailing *lobby-1* (dev) for <@U0ALICE>');
  expect(tail().threadTs).toBe(parent.ts);
  expect(buttonIds(tail())).toEqual([TAIL_ACTIONS.stop]);
  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');

  h.sim.emitLogLines('dev', 'lobby-1', ['player <alice> joined & ready', 'match 7 started']);
  await h.pumpUntil(() => shown(tail()).includes('match 7 started'), 'the lines in the tail message');
  expect(shown(tail())).toContain('player &lt;alice&gt; joined &amp; ready');
  expect(shown(tail())).toContain('live · 2 lines seen · 0 not shown');

  h.sim.emitLogLines('dev', 'lobby-1', ['match 7 ended']);
  await h.pumpUntil(() => shown(tail()).includes('match 7 ended'), 'the third line');
  const res = await h.click(tail(), TAIL_ACTIONS.stop, BOB);
  expect(res.status).toBe(200);
  await h.pumpUntil(async () => (await h.tails())[0]?.status === 'stopped', 'the tail to stop');
  const final = tail();
  expect(shown(final)).toContain('stopped by <@U0BOB> · 3 lines seen · 0 never shown');
  expect(shown(final)).toContain('match 7 ended');
  expect(buttonIds(final)).toEqual([]);
  expect((await h.tails())[0]).toMatchObject({ status: 'stopped', stopReason: 'stopped' });
  await h.pumpUntil(() => h.sim.openLogStreams() === 0, 'the stream to close');
  // Stop again (an old copy of the message): the clicker hears it already stopped.
  await h.click({ ...final, blocks: tail().history[0]?.blocks ?? [] }, TAIL_ACTIONS.stop, ALICE);
  await h.settle();
  expect(h.slack.ephemerals().map((e) => e.text)).toContain('That tail has already stopped.');
});

it('answers a missing vessel at once instead of starting a tail', async () => {
  await h.slash('logs dev no-such-vessel --follow');
  await h.settle();
  expect(h.slack.ephemerals().at(-1)?.text).toBe(
    'No vessel `no-such-vessel` in environment `dev`. Vessels in dev: `duel-1`, `lobby-1`, `lobby-2`.',
  );
  expect(await h.tails()).toEqual([]);
  expect(h.slack.channelMessages(TEST_CHANNEL.id)).toEqual([]);
});

it('stops with "the Vessel was deleted" when the Vessel is deleted in the simulator', async () => {
  const client = createGameFabricClient({
    baseUrl: h.sim.url,
    auth: { token: h.sim.token },
    clock: h.simClock,
  });
  await createStandaloneVessel(client, 'dev', 'solo-1');
  const { tail } = await follow('logs dev solo-1 --follow');
  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');
  h.sim.emitLogLines('dev', 'solo-1', ['shutting down']);
  await h.pumpUntil(() => shown(tail()).includes('shutting down'), 'the line');
  await client.deleteVessel('dev', 'solo-1');
  await h.simClock.advance(3000); // past the simulator's termination: it ends the stream
  await h.pumpUntil(async () => (await h.tails())[0]?.status === 'stopped', 'the tail to stop');
  expect(shown(tail())).toContain('stopped: the Vessel was deleted · 1 line seen · 0 never shown');
  expect((await h.tails())[0]?.stopReason).toBe('vessel_deleted');
});

it('marks a dropped stream in the message, reconnects after the backoff and shows the lines after it', async () => {
  const logsPath = '/api/formation/v1/environments/dev/vessels/lobby-2/logs';
  h.sim.setFaults([{ path: logsPath, cutLogStreamAfterLines: 1, times: 1 }]);
  const { tail } = await follow('logs dev lobby-2 --follow');
  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');
  h.sim.emitLogLines('dev', 'lobby-2', ['before the cut', 'lost in the cut']);
  await h.pumpUntil(() => shown(tail()).includes('log stream dropped'), 'the gap marker');
  expect(shown(tail())).toContain('before the cut');
  expect(shown(tail())).toMatch(
    /log stream dropped \(the hosting API could not be reached.*\); reconnecting in 1 s/,
  );
  await h.pumpUntil(
    () => h.sim.countRequests('GET', logsPath) === 2 && h.sim.openLogStreams() === 1,
    'the reconnect',
  );
  h.sim.emitLogLines('dev', 'lobby-2', ['after the cut']);
  await h.pumpUntil(() => shown(tail()).includes('after the cut'), 'the line after the reconnect');
  const text = shown(tail());
  expect(text).toContain('log stream reconnected');
  expect(text.indexOf('log stream dropped')).toBeLessThan(text.indexOf('after the cut'));
  expect(text).not.toContain('lost in the cut');
  expect(text).toContain('live · 2 lines seen');
});

it('the "Tail logs" button follows the vessel in the thread it was clicked in', async () => {
  // A release message in the channel, as the release threads post it, with a Tail logs button.
  const posted = await h.running.bot.app.client.chat.postMessage({
    channel: TEST_CHANNEL.id,
    text: 'Release 42',
    blocks: [
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: TAIL_ACTIONS.start,
            text: { type: 'plain_text', text: 'Tail logs' },
            value: JSON.stringify({ environment: 'dev', vessel: 'lobby-1', releaseId: 'rel-42' }),
          },
        ],
      },
    ],
  });
  const release = h.message(posted.ts as string);
  // The button's release id counts only for a release the store holds in this channel.
  await h.running.core.store.createRelease({
    id: 'rel-42',
    workspace: TEST_TEAM.id,
    channel: TEST_CHANNEL.id,
    messageTs: release.ts,
    title: '42',
    status: 'open',
    createdBy: ALICE.id,
    createdAt: Date.now(),
    data: {},
  });
  await h.click(release, TAIL_ACTIONS.start, ALICE);
  await h.settle();
  const [record] = await h.tails();
  expect(record).toMatchObject({
    threadTs: release.ts,
    releaseId: 'rel-42',
    vessel: 'lobby-1',
    startedBy: 'U0ALICE',
  });
  const replies = h.thread(release.ts);
  expect(replies).toHaveLength(1);
  expect(buttonIds(replies[0])).toEqual([TAIL_ACTIONS.stop]);
  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');
  h.sim.emitLogLines('dev', 'lobby-1', ['in the release thread']);
  await h.pumpUntil(() => shown(h.thread(release.ts)[0]).includes('in the release thread'), 'the line');
});
