/**
 * Issue 30, point 7: smaller dead ends found walking the page, each checked
 * through the real bot: help that knows the Home tab and the message
 * shortcut, an approvals list that drops a change someone else finished,
 * and Done messages without internal ids.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, BOB, type BotHarness, CAROL, startBotHarness } from './bot-harness.js';
import { buttonIds, clickEphemeral, current, shown } from './harness-extras.js';

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

it('after "Already done" the approvals list no longer offers the finished change', async () => {
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  const prod = h.lastMessage();
  await h.slash('approvals', CAROL);
  const list = h.slack
    .ephemerals()
    .filter((e) => e.user === CAROL.id)
    .at(-1);
  if (!list) throw new Error('no approvals list');
  expect(buttonIds(list)).toContain(CHANGE_ACTIONS.approve);
  // Bob approves from the channel message meanwhile; Carol's list is now out of date.
  await h.click(prod, CHANGE_ACTIONS.approve, BOB);
  await clickEphemeral(h, list, CHANGE_ACTIONS.approve, CAROL);
  const after = h.slack
    .ephemerals()
    .filter((e) => e.user === CAROL.id)
    .at(-1);
  expect(after?.text).toMatch(/Already done \(applied by <@U0BOB>\)/);
  expect(buttonIds(after)).not.toContain(CHANGE_ACTIONS.approve);
  expect(buttonIds(after)).not.toContain(CHANGE_ACTIONS.reject);
});

it('a Done message shows no internal ids (the promotion’s name, the internal image name)', async () => {
  await h.slash('promote game-server:1.2.0 from dev to staging', ALICE);
  const preview = h.lastMessage();
  await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
  const done = shown(current(h, preview));
  expect(done).toMatch(/Done/);
  expect(done).not.toMatch(/img-[0-9a-f]{8}|Promotion: |Internal image name/);
  expect(done).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
});
