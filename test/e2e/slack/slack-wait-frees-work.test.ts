/**
 * Issue 30, point 10: waiting for one Slack method's pace must not hold a
 * work slot. After a burst of Confirm clicks the change messages' rewrites
 * wait minutes for chat.update's Tier 3 pace; meanwhile new commands, which
 * need no chat.update, were answered "busy" or not at all while the API sat
 * idle. Here the workspace's chat.update gate in the store is booked ten
 * minutes ahead (as after such a burst), both work slots go to clicks whose
 * rewrites wait on it (in the Slack gateway's queue), and commands sent then
 * are answered at once.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import type { RecordedCall } from '../../../src/workspace/call-log.js';
import { TEST_TEAM } from '../../../src/workspace/identity.js';
import { postSigned } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import {
  ALICE,
  type BotHarness,
  clickBody,
  SIGNING_SECRET,
  slashBody,
  startBotHarness,
} from './bot-harness.js';

let h: BotHarness;
const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0));
afterEach(async () => {
  // Let the held rewrites go out so the bot can stop.
  for (let i = 0; i < 30; i++) await clock.advance(60_000);
  await h.stop();
});

/** Resolves true once `n` answers to `vessels dev` went to response URLs, false after `ms` of real time. */
async function answered(n: number, ms: number): Promise<boolean> {
  const answer = (c: RecordedCall) =>
    c.method === 'response_url' && /vessels in environment/.test(JSON.stringify(c.body));
  // The stand-in wakes a waiter at each call it records; the real-time bound is only a safety net.
  for (let seen = 0, after = 0; seen < n; seen++) {
    const call = await h.slack.waitFor(answer, { after, timeoutMs: ms }).catch(() => undefined);
    if (!call) return false;
    after = h.slack.calls.indexOf(call) + 1;
  }
  return true;
}

it('commands are answered while every work slot’s click waits for a chat.update slot', async () => {
  h = await startBotHarness({ clock, workConcurrency: 2, queueLimit: 50 });
  const previews: StoredMessage[] = [];
  for (const tag of ['1.1.0', '1.2.0']) {
    await h.slash(`promote game-server:${tag} from dev to staging`, ALICE);
    previews.push(h.lastMessage());
  }
  // The workspace's chat.update pace is spoken for ten minutes ahead, on every replica.
  await h.running.core.store.holdSlots(`${TEST_TEAM.id}:chat.update`, clock.now() + 10 * 60_000);
  for (const preview of previews) {
    await postSigned(h.eventsUrl, SIGNING_SECRET, clickBody(h.slack, preview, CHANGE_ACTIONS.confirm, ALICE));
  }
  // Both clicks' rewrites now wait for a chat.update slot in the Slack gateway's queue.
  // (The gateway tells each call it queues: this waits on the bot, not on time.)
  await h.running.slackBudget.until(() => h.running.slackBudget.waiting() >= 2);
  expect(h.running.slackBudget.waiting()).toBeGreaterThanOrEqual(2);
  for (let i = 0; i < 5; i++) {
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, 'vessels dev', ALICE));
    expect(JSON.stringify(res.body ?? '')).not.toMatch(/busy/);
  }
  expect(await answered(5, 5_000)).toBe(true);
});
