/**
 * Issue 22, point 4: a channel's name is what Slack says it is
 * (`conversations.info`), never what a payload claims. A policy that lets
 * only #harbor-prod change prod must refuse a command or a click from #ops
 * that calls itself "harbor-prod", and allow the real #harbor-prod.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { blockActionsPayload, interactionBody, slashCommandBody } from '../../../src/workspace/payloads.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { buttonIds } from './harness-extras.js';

const PROD_CHANNEL = { id: 'C0PROD', name: 'harbor-prod' };
const POLICY = `
version: 1
rules:
  - name: reads
    operations: [images.list, vessels.list, formation.show, region.show, logs.read]
  - name: prod-only-from-harbor-prod
    operations: ['*']
    target: { environment: prod }
    channels: [harbor-prod]
    approval: { mode: confirm }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness({ policy: POLICY });
  h.slack.channels.set(PROD_CHANNEL.id, PROD_CHANNEL.name);
});
afterEach(async () => {
  await h.stop();
});

async function slashIn(channel: { id: string; name: string }, text: string) {
  await postSigned(
    h.eventsUrl,
    SIGNING_SECRET,
    slashCommandBody({
      text,
      user_id: ALICE.id,
      user_name: ALICE.name,
      channel_id: channel.id,
      channel_name: channel.name,
      response_url: h.slack.responseUrl({ channel: channel.id, user: ALICE.id }),
    }),
  );
  await h.settle();
}

it('a command from #ops claiming the name "harbor-prod" is refused; the real #harbor-prod may', async () => {
  await slashIn({ id: TEST_CHANNEL.id, name: 'harbor-prod' }, 'formation remove prod arena arena-1');
  expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/from this channel: .* only in #harbor-prod/);
  expect(h.slack.channelMessages(TEST_CHANNEL.id)).toEqual([]);

  await slashIn(PROD_CHANNEL, 'formation remove prod arena arena-1');
  const preview = h.slack.channelMessages(PROD_CHANNEL.id).at(-1);
  expect(buttonIds(preview)).toContain(CHANGE_ACTIONS.confirm);
});

it('a click from #ops claiming channel.name "harbor-prod" does not confirm a prod change', async () => {
  await slashIn(PROD_CHANNEL, 'formation remove prod arena arena-1');
  const preview = h.slack.channelMessages(PROD_CHANNEL.id).at(-1);
  if (!preview) throw new Error('no preview');
  const forged = blockActionsPayload({
    actionId: CHANGE_ACTIONS.confirm,
    user: ALICE,
    channel: { id: TEST_CHANNEL.id, name: 'harbor-prod' },
    message: preview,
    responseUrl: h.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
  });
  await postSigned(h.eventsUrl, SIGNING_SECRET, interactionBody(forged));
  await h.settle();
  expect(h.sim.countRequests('PATCH', '/api/formation/v1/environments/prod/formations/arena')).toBe(0);
  expect(buttonIds(h.slack.message(PROD_CHANNEL.id, preview.ts))).toContain(CHANGE_ACTIONS.confirm);
});
