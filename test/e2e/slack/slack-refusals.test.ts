/**
 * When Slack refuses what the bot sends (the workspace answers with Slack's
 * error names, e.g. `invalid_blocks`), the person who asked hears that it
 * failed instead of silence, and no preview (nothing to confirm) was posted.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

it('a preview Slack refuses with invalid_blocks is reported to the requester', async () => {
  h.slack.refuseNext('chat.postMessage', 'invalid_blocks');
  await h.slash('promote game-server:1.2.0 from dev to staging');
  const refused = h.slack.callsTo('chat.postMessage').at(-1);
  expect(refused?.response).toMatchObject({ ok: false, error: 'invalid_blocks' });
  const told = h.ephemeralTexts(ALICE).at(-1) ?? '';
  expect(told).toMatch(/internal error \(id \w+\)\. The bot's log has the details under that id/);
  expect(told).not.toMatch(/at .*\.ts:\d+/); // never a stack trace
  expect(h.slack.callsTo('chat.postMessage').filter((c) => c.response.ok === true)).toEqual([]);
});
