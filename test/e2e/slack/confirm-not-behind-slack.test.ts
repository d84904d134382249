/**
 * Issue 39: with Slack answering every call after 5 s, a Confirm's API write
 * still happens within 1 s of the click. The engine publishes what the click
 * did (the outbox, then this replica's listeners) and never waits for a
 * surface; only the click's own answer waits for its drawing. Slack here is
 * a stand-in whose every Web API call is held 5 s on a manual clock that
 * does not move until the write is seen: the write cannot have waited for
 * any Slack answer. One second of real time bounds the failure only.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { type BotHarness, clickBody, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { current, shown } from './harness-extras.js';

const ARMADAS = '/api/armada/v1/environments/dev/armadas';
const slackTime = new ManualClock(Date.UTC(2026, 2, 1, 9, 0));
let slow = false;
let h: BotHarness;
afterEach(async () => {
  slow = false;
  // Let the held calls go out so the bot can stop.
  for (let i = 0; i < 20; i++) await slackTime.advance(5_000);
  await h.stop();
});

/** Resolves true once `test` holds, false after `ms` of real time. */
function within(test: () => boolean, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = () => {
      if (test()) return resolve(true);
      if (Date.now() - started > ms) return resolve(false);
      setTimeout(poll, 5);
    };
    poll();
  });
}

it('applies a Confirm within 1 s while every Slack call takes 5 s, and draws it once Slack answers', async () => {
  h = await startBotHarness({ slackDelay: () => (slow ? slackTime.sleep(5_000) : Promise.resolve()) });
  await h.slash('armada scale dev duel --type cloud --min 2 --max 30');
  const preview = h.lastMessage();
  expect(h.sim.countRequests('PATCH', ARMADAS)).toBe(0);

  // From now on Slack answers every call after 5 s (of a clock that stands still until released).
  slow = true;
  const clicked = Date.now();
  await postSigned(h.eventsUrl, SIGNING_SECRET, clickBody(h.slack, preview, CHANGE_ACTIONS.confirm));
  expect(await within(() => h.sim.countRequests('PATCH', ARMADAS) === 1, 1_000)).toBe(true);
  expect(Date.now() - clicked).toBeLessThan(1_000);
  // Nothing of Slack's has been answered: the message still offers Confirm.
  expect(shown(current(h, preview))).not.toMatch(/^Done/);

  // Slack answers: the message catches up, and the write was made once.
  slow = false;
  for (let i = 0; i < 6; i++) await slackTime.advance(5_000);
  await h.settle();
  await h.running.bot.followUpsDone();
  expect(shown(current(h, preview))).toMatch(/^Done/);
  expect(h.sim.countRequests('PATCH', ARMADAS)).toBe(1);
});
