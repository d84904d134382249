/**
 * The message shortcut "Harbormaster: show / tail logs" end to end (issue
 * 19.3): used on an alert naming a vessel it opens the tail form in that
 * vessel's environment with the vessel chosen, and the tail starts in the
 * alert's thread; on one naming an armada it shows the armada privately; on
 * one naming neither it says so.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { LOGS_SHORTCUT_CALLBACK } from '../../../src/slack/ids.js';
import { readMetadata } from '../../../src/slack/modals/index.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { messageShortcutPayload } from '../../../src/workspace/payloads.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Someone posts `text` in the channel and Alice uses the shortcut on it. */
async function shortcutOn(text: string) {
  const alert = h.slack.postAsUser(TEST_CHANNEL.id, 'U0PAGER', text);
  const res = await h.interact(
    messageShortcutPayload({
      callbackId: LOGS_SHORTCUT_CALLBACK,
      message: { ts: alert.ts, text, user: 'U0PAGER' },
      user: ALICE,
      responseUrl: h.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
      triggerId: h.slack.triggerId(undefined, ALICE.id),
    }),
  );
  expect(res.status).toBe(200);
  return alert;
}

it('opens the tail form filled in for the vessel an alert names, and tails it in the alert thread', async () => {
  const alert = await shortcutOn(':rotating_light: FIRING: lobby-2 restarted 5 times in 10m');
  const viewId = openedViewId(h);
  const view = h.slack.view(viewId);
  if (!view) throw new Error('no view');
  expect(readMetadata(view.private_metadata)).toMatchObject({
    kind: 'logs.follow',
    environment: 'dev',
    vessel: 'lobby-2',
    threadTs: alert.ts,
  });
  const vessel = (view.blocks as { block_id?: string; element?: Record<string, unknown> }[]).find(
    (b) => b.block_id === 'vessel',
  );
  expect(vessel?.element?.initial_option).toMatchObject({ value: 'lobby-2' });

  await h.submit(viewId, {});
  const replies = h.slack
    .channelMessages(TEST_CHANNEL.id)
    .filter((m) => m.threadTs === alert.ts && m.ts !== alert.ts);
  expect(shown(replies.at(0))).toContain('lobby-2');
});

it('shows the armada an alert names, privately', async () => {
  await shortcutOn('duel: 0 of 2 replicas ready');
  expect(h.slack.callsTo('views.open')).toHaveLength(0);
  expect(h.ephemeralTexts().at(-1)).toMatch(/duel/);
});

it('says so when the message names neither', async () => {
  await shortcutOn('the coffee machine is down again');
  expect(h.slack.callsTo('views.open')).toHaveLength(0);
  expect(h.ephemeralTexts().at(-1)).toBe('This message names no vessel or armada in `dev`, `prod`.');
});
