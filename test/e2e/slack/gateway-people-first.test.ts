/**
 * Issue 40: a person's call never queues behind paced background calls. 150
 * previews asked for at once in one channel wait for Slack's pace (the
 * workspace's chat.postMessage gate, on the bot's ManualClock, which does not
 * move meanwhile); a command that opens a modal in another channel still has
 * its `views.open` within 3 s of real time (its trigger is good for 3 s), and
 * `help` is answered within 1 s. Then the clock moves and every preview
 * arrives: the paced posts lost nothing.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { RESPONSE_URL_METHOD, type RecordedCall } from '../../../src/workspace/call-log.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { slashCommandBody } from '../../../src/workspace/payloads.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, SIGNING_SECRET, slashBody, startBotHarness } from './bot-harness.js';

const PREVIEWS = 150;
const OTHER = { id: 'C0OTHER', name: 'other' } as const;

let h: BotHarness;
const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0));
afterEach(async () => {
  for (let i = 0; i < 10 && h; i++) await clock.advance(60_000, () => h.slackCallsDone());
  await h?.stop();
}, 600_000);

/** The real ms from `started` until the stand-in recorded a call `match`es (made after call `after`), or undefined past `ms`. */
async function tookUntil(
  started: number,
  ms: number,
  after: number,
  match: (call: RecordedCall) => boolean,
): Promise<number | undefined> {
  const call = await h.slack.waitFor(match, { after, timeoutMs: ms }).catch(() => undefined);
  return call ? Date.now() - started : undefined;
}

/** A `/harbor <text>` from Alice in the other channel. */
function otherChannelSlash(text: string): string {
  return slashCommandBody({
    text,
    channel_id: OTHER.id,
    channel_name: OTHER.name,
    user_id: ALICE.id,
    user_name: ALICE.name,
    response_url: h.slack.responseUrl({ channel: OTHER.id, user: ALICE.id }),
    trigger_id: h.slack.triggerId(),
  });
}

it('a modal opens and help is answered at once while 150 previews wait for the pace; the previews all arrive', async () => {
  h = await startBotHarness({ clock, slackClock: clock, slackPace: 'real', queueLimit: 400 });
  h.slack.channels.set(OTHER.id, OTHER.name);
  const previews = () =>
    h.slack.callsTo('chat.postMessage').filter((c) => c.status === 200 && c.body.channel === TEST_CHANNEL.id)
      .length;
  await Promise.all(
    Array.from({ length: PREVIEWS }, () =>
      postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, 'vessel delete dev duel-1', ALICE)),
    ),
  );
  // Every preview is posted or waits in the gateway for Slack's pace (more than the Web API client
  // runs at once, 100): the gateway tells each call it queues, so this waits on the bot, not on time.
  const gateway = h.running.slackBudget;
  await gateway.until(() => previews() + gateway.waiting() >= PREVIEWS);
  const postedBefore = previews();
  expect(postedBefore).toBeLessThan(PREVIEWS);

  const opened = h.slack.calls.length;
  const openStarted = Date.now();
  await postSigned(h.eventsUrl, SIGNING_SECRET, otherChannelSlash('promote'));
  const openMs = await tookUntil(openStarted, 3_000, opened, (c) => c.method === 'views.open');
  expect(openMs).toBeDefined();
  expect(openMs as number).toBeLessThanOrEqual(3_000);

  const answered = h.slack.calls.length;
  const started = Date.now();
  const res = await postSigned(h.eventsUrl, SIGNING_SECRET, otherChannelSlash('help'));
  const inAck = JSON.stringify(res.body ?? '').includes('/harbor');
  const helpMs = inAck
    ? Date.now() - started
    : await tookUntil(
        started,
        1_000,
        answered,
        (c) => c.method === RESPONSE_URL_METHOD && JSON.stringify(c.body).includes('/harbor'),
      );
  expect(helpMs).toBeDefined();
  expect(helpMs as number).toBeLessThanOrEqual(1_000);
  // The previews still wait: the person's calls went past them, not after them.
  expect(gateway.waiting()).toBeGreaterThan(100);
  // The clock had not moved: no preview was let through for the person's sake.
  expect(clock.now()).toBe(Date.UTC(2026, 10, 26, 12, 0));

  // Slack's pace, as the clock moves: every preview arrives.
  for (let s = 0; s < 600 && previews() < PREVIEWS; s++) await clock.advance(1_000, () => h.slackCallsDone());
  expect(previews()).toBe(PREVIEWS);
}, 600_000);
