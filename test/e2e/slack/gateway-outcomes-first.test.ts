/**
 * Issue 40: 120 previews in four channels confirmed at once. Slack allows
 * about 50 chat.update a minute for the workspace (Tier 3), which is one edit
 * for each of the 120 messages in under three minutes; yet five minutes
 * later only 26 had been edited at all and 94 still showed Confirm, inviting
 * a second click. A message's outcome goes before other messages' progress
 * redraws, and a redraw a newer one replaced before its slot came is not
 * sent: within three minutes of (manual) clock time every message shows its
 * outcome, and no minute holds more chat.update calls than Slack allows.
 */
import { afterEach, expect, it } from '@jest/globals';
import { FINAL_STATUSES } from '../../../src/changes/change.js';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { blockActionsPayload, interactionBody, slashCommandBody } from '../../../src/workspace/payloads.js';
import { postSigned } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { busiestMinute } from '../../slack/tails/replicas.js';
import { ALICE, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';

const CHANGES = 120;
const CHANNELS = [
  TEST_CHANNEL,
  { id: 'C0TWO', name: 'two' },
  { id: 'C0THREE', name: 'three' },
  { id: 'C0FOUR', name: 'four' },
] as const;
const TIER3 = 50;

let h: BotHarness | undefined;
const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0));
afterEach(async () => {
  for (let i = 0; i < 10 && h; i++) await clock.advance(60_000, () => (h as BotHarness).slackCallsDone());
  await h?.stop();
}, 600_000);

const vessel = (i: number) => `v-${i}`;

it('120 Confirms at once: every message shows its outcome within 3 minutes, within Tier 3', async () => {
  const bot = await startBotHarness({
    clock,
    slackClock: clock,
    slackPace: 'real',
    queueLimit: 400,
    world: (data) => {
      const dev = data.environments.dev;
      const template = dev?.vessels?.[0];
      if (!dev?.vessels || !template) throw new Error('the demo world has no standalone vessel');
      for (let i = 0; i < CHANGES; i++) {
        dev.vessels.push({ ...template, metadata: { ...template.metadata, name: vessel(i) } });
      }
    },
  });
  h = bot;
  for (const c of CHANNELS) bot.slack.channels.set(c.id, c.name);
  bot.slack.enforceLimits({ chatUpdatePerMinute: TIER3 });
  const channelOf = (i: number) => CHANNELS[i % CHANNELS.length] as { id: string; name: string };

  // The previews, at Slack's pace (the clock moves until all are posted).
  for (let i = 0; i < CHANGES; i++) {
    const channel = channelOf(i);
    await postSigned(
      bot.eventsUrl,
      SIGNING_SECRET,
      slashCommandBody({
        text: `vessel delete dev ${vessel(i)}`,
        channel_id: channel.id,
        channel_name: channel.name,
        user_id: ALICE.id,
        user_name: ALICE.name,
        response_url: bot.slack.responseUrl({ channel: channel.id, user: ALICE.id }),
        trigger_id: bot.slack.triggerId(),
      }),
    );
  }
  const previewOf = (i: number): StoredMessage | undefined =>
    bot.slack
      .channelMessages(channelOf(i).id)
      .find((m) => !m.threadTs && (m.text ?? '').includes(`vessel ${vessel(i)} `));
  const postedCount = () => Array.from({ length: CHANGES }, (_, i) => previewOf(i)).filter(Boolean).length;
  const allPosted = () => postedCount() === CHANGES;
  // The clock moves only once every preview is posted or waits in the gateway for Slack's pace:
  // moved earlier, it would run past work still on its way (planning reads the simulator).
  const gateway = bot.running.slackBudget;
  await gateway.until(() => postedCount() + gateway.waiting() >= CHANGES);
  for (let s = 0; s < 600 && !allPosted(); s++) await clock.advance(1_000, () => bot.slackCallsDone());
  await bot.settle();
  const previews = Array.from({ length: CHANGES }, (_, i) => {
    const p = previewOf(i);
    if (!p) throw new Error(`no preview for ${vessel(i)}`);
    return p;
  });

  // Let the chat.update gate fill up again, then confirm all 120 at once.
  await clock.advance(60_000, () => bot.slackCallsDone());
  const confirmedAt = clock.now();
  const outcomesBefore = gateway.asked('outcome', 'chat.update');
  await Promise.all(
    previews.map((preview, i) =>
      postSigned(
        bot.eventsUrl,
        SIGNING_SECRET,
        interactionBody(
          blockActionsPayload({
            actionId: CHANGE_ACTIONS.confirm,
            user: ALICE,
            channel: channelOf(i),
            message: preview,
            responseUrl: bot.slack.responseUrl({
              channel: channelOf(i).id,
              user: ALICE.id,
              messageTs: preview.ts,
            }),
            triggerId: bot.slack.triggerId(),
          }),
        ),
      ),
    ),
  );
  // Every click has been worked (each change applied against the simulator) and its outcome asked
  // of the gateway before the clock moves: what is measured is Slack's pace, not how fast this
  // machine runs the clicks.
  await gateway.until(() => gateway.asked('outcome', 'chat.update') - outcomesBefore >= CHANGES);
  const settled = await bot.running.core.store.listChanges({ status: FINAL_STATUSES, limit: 1000 });
  expect(settled).toHaveLength(CHANGES);
  expect(clock.now()).toBe(confirmedAt);
  const current = (i: number) => bot.slack.message(channelOf(i).id, (previews[i] as StoredMessage).ts);
  const showsOutcome = (i: number) => {
    const text = current(i)?.text ?? '';
    return (
      !/^(Confirm|Applying)/.test(text) &&
      !JSON.stringify(current(i)?.blocks ?? []).includes(CHANGE_ACTIONS.confirm)
    );
  };
  const shown = () => Array.from({ length: CHANGES }, (_, i) => i).filter(showsOutcome).length;
  while (clock.now() - confirmedAt < 3 * 60_000 && shown() < CHANGES) {
    await clock.advance(1_000, () => bot.slackCallsDone());
  }
  const stillConfirm = Array.from({ length: CHANGES }, (_, i) => i)
    .filter((i) => !showsOutcome(i))
    .map((i) => `${vessel(i)}: ${(current(i)?.text ?? '').slice(0, 40)}`);
  expect(stillConfirm).toEqual([]);
  expect(clock.now() - confirmedAt).toBeLessThanOrEqual(3 * 60_000);
  expect(busiestMinute(bot.slack.calls, 'chat.update')).toBeLessThanOrEqual(TIER3);
  expect(bot.slack.rateLimited.filter((r) => r.method === 'chat.update')).toEqual([]);
}, 600_000);
