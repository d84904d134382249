/**
 * The Home tab end to end (issue 19.1): opening it (a signed
 * `app_home_opened` event) publishes what waits for the person, their
 * requests and where they stand, their live tails and the open releases;
 * the Messages tab publishes nothing.
 */

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { internalImageName } from '../../../src/simulator/image-names.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { appHomeOpenedBody, blockActionsPayload, postSigned } from '../../../src/workspace/signing.js';
import { ALICE, BOB, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** `user` opens the app's `tab`; resolves once the bot's work behind the ack is done. */
async function openTab(user: string, tab: 'home' | 'messages' = 'home'): Promise<void> {
  const res = await postSigned(h.eventsUrl, SIGNING_SECRET, appHomeOpenedBody(user, tab), {
    contentType: 'application/json',
  });
  expect(res.status).toBe(200);
  await h.settle();
}

it('shows the requester where their request stands, and the approver that it waits for them', async () => {
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  await openTab(ALICE.id);
  const alices = shown(h.slack.homeView(ALICE.id));
  expect(alices).toContain('Your requests');
  expect(alices).toMatch(/waiting for approval: \*Promote game-server:1\.2\.0/);
  expect(alices).toContain('Nothing needs your approval right now.');
  expect(alices).toContain('No live tails of yours are running.');

  await openTab(BOB.id);
  const bobs = h.slack.homeView(BOB.id);
  expect(shown(bobs)).toMatch(/1 change waiting for your approval/);
  expect(JSON.stringify(bobs?.blocks)).toContain('"action_id":"change.approve"');
});

it('lists a rollout whose follow-up failed as failed, not done (the change message says the same)', async () => {
  h.sim.setCrashingImage('dev', internalImageName('dev', 'game-server', '1.1.0'), 'exit code 1');
  await h.slash('armada image dev duel game-server:1.1.0', ALICE);
  const message = h.lastMessage();
  await h.click(message, CHANGE_ACTIONS.confirm, ALICE);
  await openTab(ALICE.id);
  expect(shown(h.slack.homeView(ALICE.id))).toMatch(/applied, rollout followed: \*Roll out armada duel/);
  await h.running.bot.followUpsDone();
  await openTab(ALICE.id);
  const home = shown(h.slack.homeView(ALICE.id));
  expect(home).toMatch(/:x: applied, then failed: \*Roll out armada duel/);
  expect(home).not.toMatch(/done: \*Roll out armada duel/);
});

it('draws nothing for the Messages tab', async () => {
  await openTab(ALICE.id, 'messages');
  expect(h.slack.callsTo('views.publish')).toHaveLength(0);
});

it('approves from the Home tab; the change goes through and both Home tabs are redrawn', async () => {
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  const message = h.lastMessage();
  await openTab(ALICE.id);
  await openTab(BOB.id);
  const home = h.slack.homeView(BOB.id);
  if (!home) throw new Error('no Home tab');
  const res = await h.interact(blockActionsPayload({ actionId: 'change.approve', view: home, user: BOB }));
  expect(res.status).toBe(200);
  await h.settle();
  const after = shown(h.slack.message(message.channel, message.ts));
  expect(after).toMatch(/^Done: Promoted game-server:1\.2\.0 from dev to prod/);
  // Both Home tabs were redrawn: nothing waits for Bob any more, Alice's request is done.
  expect(shown(h.slack.homeView(BOB.id))).toContain('Nothing needs your approval right now.');
  expect(shown(h.slack.homeView(ALICE.id))).toMatch(/done: \*Promote game-server:1\.2\.0/);
});

it('lists the live tails the person started, and Stop there stops the tail', async () => {
  await h.slash('logs dev lobby-1 --follow', ALICE);
  await openTab(ALICE.id);
  const home = h.slack.homeView(ALICE.id);
  expect(shown(home)).toMatch(/lobby-1\* in `dev`/);
  // Bob started none.
  await openTab(BOB.id);
  expect(shown(h.slack.homeView(BOB.id))).toContain('No live tails of yours are running.');
  if (!home) throw new Error('no Home tab');
  // The tail stops behind the click; its end redraws the tab.
  const redrawn = h.slack.waitFor(
    (c) =>
      c.method === 'views.publish' &&
      JSON.stringify(c.body).includes('No live tails of yours are running.') &&
      c.body.user_id === ALICE.id,
  );
  const res = await h.interact(blockActionsPayload({ actionId: 'tail.stop', view: home, user: ALICE }));
  expect(res.status).toBe(200);
  await redrawn;
  await h.settle();
  expect(shown(h.slack.homeView(ALICE.id))).toContain('No live tails of yours are running.');
  expect(h.logs.lines.filter((l) => JSON.parse(l).level === 'error')).toEqual([]);
});

it('rejects from the Home tab: the reason is asked for, the change closes, the tabs are redrawn', async () => {
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  const message = h.lastMessage();
  await openTab(ALICE.id);
  await openTab(BOB.id);
  const home = h.slack.homeView(BOB.id);
  if (!home) throw new Error('no Home tab');
  const res = await h.interact(blockActionsPayload({ actionId: 'change.reject', view: home, user: BOB }));
  expect(res.status).toBe(200);
  await h.settle();
  await h.submit(openedViewId(h), { reason: { reason: { type: 'plain_text_input', value: 'freeze' } } }, BOB);
  await h.settle();
  expect(shown(h.slack.message(message.channel, message.ts))).toContain(
    `Rejected by <@${BOB.id}>; nothing was applied.`,
  );
  expect(shown(h.slack.homeView(BOB.id))).toContain('Nothing needs your approval right now.');
  expect(shown(h.slack.homeView(ALICE.id))).toMatch(/rejected: \*Promote game-server:1\.2\.0/);
});

describe('a rule that allows its changes only in one channel', () => {
  let ch: BotHarness;
  beforeEach(async () => {
    await h.stop();
    ch = await startBotHarness({
      policy: [
        'rules:',
        '  - name: prod-in-its-channel',
        '    operations: [formation.remove]',
        `    channels: [${TEST_CHANNEL.id}]`,
        '    approval: { required: 1, approvers: { users: ["*"] } }',
        '  - name: rest',
        '    operations: ["*"]',
      ].join('\n'),
    });
    h = ch;
  });

  it('lists its changes on the approver Home tab and approves them from there, judged in their channel', async () => {
    await h.slash('formation remove dev lobby lobby-1', ALICE);
    await openTab(BOB.id);
    const home = h.slack.homeView(BOB.id);
    expect(shown(home)).toMatch(/1 change waiting for your approval/);
    if (!home) throw new Error('no Home tab');
    await h.interact(blockActionsPayload({ actionId: 'change.approve', view: home, user: BOB }));
    await h.settle();
    expect(h.lastMessage().text).toMatch(/^Done: Removed vessel lobby-1/);
  });
});

it('offers Roll back beside an applied request; clicked there, its preview is posted in the change’s channel', async () => {
  await h.slash('armada scale dev duel --type cloud --max 30', ALICE);
  const original = h.lastMessage();
  await h.click(original, CHANGE_ACTIONS.confirm, ALICE);
  await openTab(ALICE.id);
  const home = h.slack.homeView(ALICE.id);
  if (!home) throw new Error('no Home tab');
  const json = JSON.stringify(home.blocks);
  expect(json).toContain(`"action_id":"${ROW_ACTIONS.rollback}"`);
  const value = json.match(/"value":"(rollback [^"]+)"/)?.[1];
  expect(value).toBeDefined();

  const res = await h.interact(
    blockActionsPayload({ actionId: ROW_ACTIONS.rollback, view: home, user: ALICE, value: value ?? '' }),
  );
  expect(res.status).toBe(200);
  await h.settle();
  const preview = h.lastMessage();
  expect(preview.channel).toBe(TEST_CHANNEL.id);
  expect(preview.text).toMatch(/Roll back change \S+: .*back to min 0, buffer 2, max 20/);
  expect(h.logs.lines.filter((l) => JSON.parse(l).level === 'error')).toEqual([]);
});
