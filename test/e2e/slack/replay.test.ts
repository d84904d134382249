/**
 * A replayed signed slash command (issue 9, defect 14): Slack signs a body
 * once and Bolt accepts it for five minutes, so someone who captured
 * `/harbor promote ...` could send it again. The second copy must not create
 * a second pending change, on this bot or on one restarted meanwhile.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, SIGNING_SECRET, slashBody, startBotHarness } from './bot-harness.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const previews = () => h.slack.channelMessages(TEST_CHANNEL.id).filter((m) => !m.threadTs);
const pendingChanges = () => h.running.core.store.listChanges({ status: ['pending'] });

async function send(body: string): Promise<number> {
  const res = await postSigned(h.eventsUrl, SIGNING_SECRET, body);
  await h.settle();
  return res.status;
}

it('the same signed command sent twice creates one change and one preview', async () => {
  const body = slashBody(h.slack, 'promote game-server:1.1.0 from dev to staging', ALICE);
  expect(await send(body)).toBe(200);
  expect(await send(body)).toBe(200);
  expect(previews()).toHaveLength(1);
  expect(await pendingChanges()).toHaveLength(1);
  expect(h.logs.lines.some((l) => l.includes('ignored a replayed slash command'))).toBe(true);
});

it('a replay after a restart is still recognised (the key lives in the store)', async () => {
  const body = slashBody(h.slack, 'promote game-server:1.1.0 from dev to staging', ALICE);
  await send(body);
  await h.restart();
  await send(body);
  expect(previews()).toHaveLength(1);
  expect(await pendingChanges()).toHaveLength(1);
});

it('the same command typed again (a new trigger id) is a new request', async () => {
  await h.slash('promote game-server:1.1.0 from dev to staging');
  await h.slash('promote game-server:1.1.0 from dev to staging');
  expect(previews()).toHaveLength(2);
});
