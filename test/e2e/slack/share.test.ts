/**
 * "Share in channel" end to end: every private read answer carries the
 * button; pressing it posts the answer in the channel, attributed to whoever
 * shared it, and turns the private answer into a note; a double click posts
 * once; a channel the bot is not in gets a clear refusal, and sharing works
 * once the bot is invited.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SHARE_ACTION } from '../../../src/slack/ids.js';
import { TEST_CHANNEL, type TestUser } from '../../../src/workspace/identity.js';
import { blockActionsPayload, type SignedResponse } from '../../../src/workspace/signing.js';
import type { EphemeralMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, buttons, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** `/harbor <text>` as `user`; returns the private answer they got. */
async function privateAnswer(text: string, user: TestUser = ALICE): Promise<EphemeralMessage> {
  await h.slash(text, user);
  const answer = h.slack
    .ephemerals()
    .filter((e) => e.user === user.id)
    .at(-1);
  if (!answer) throw new Error(`${user.name} got no answer to ${text}`);
  return answer;
}

/** Presses "Share in channel" on `answer` as Slack sends it: a click in an ephemeral message. */
function share(answer: EphemeralMessage, user: TestUser = ALICE, actionTs = h.slack.messageTs()) {
  return h.interact(
    blockActionsPayload({
      actionId: SHARE_ACTION,
      user,
      channel: TEST_CHANNEL,
      message: { ts: answer.messageTs, text: answer.text, blocks: answer.blocks },
      isEphemeral: true,
      actionTs,
      responseUrl: h.slack.responseUrl({
        channel: TEST_CHANNEL.id,
        user: user.id,
        messageTs: answer.messageTs,
        ephemeral: true,
      }),
      triggerId: h.slack.triggerId(),
    }),
  );
}

const channelPosts = () => h.slack.channelMessages(TEST_CHANNEL.id);

describe('Share in channel', () => {
  it.each([
    ['images dev'],
    ['vessels dev'],
    ['formation show dev lobby'],
    ['region show dev eu-central'],
    ['logs dev lobby-1 --lines 5'],
    ['approvals'],
  ])('offers the button on the private answer to `%s`, carrying the command', async (text) => {
    const answer = await privateAnswer(text);
    expect(buttonIds(answer)).toContain(SHARE_ACTION);
    expect(buttons(answer).find((b) => b.action_id === SHARE_ACTION)?.value).toBe(text);
  });

  it('posts the answer in the channel once, shared by the person who pressed it', async () => {
    const answer = await privateAnswer('formation show dev lobby', BOB);
    expect(channelPosts()).toHaveLength(0);
    await share(answer, BOB);
    const posts = channelPosts();
    expect(posts).toHaveLength(1);
    const post = posts[0];
    expect(post?.text).toContain(`shared by <@${BOB.id}>`);
    expect(shown(post)).toContain(`Shared by <@${BOB.id}>`);
    expect(shown(post)).toContain('/harbor formation show dev lobby');
    // The same content the private answer showed (its sections), without the share button.
    for (const block of answer.blocks.filter((b) => (b as { type: string }).type === 'section')) {
      expect(post?.blocks).toContainEqual(block);
    }
    expect(buttonIds(post)).toEqual([]);
    // The private answer says where it went and can no longer be shared.
    const after = h.slack.ephemerals().find((e) => e.messageTs === answer.messageTs);
    expect(shown(after)).toContain(`You shared this in <#${TEST_CHANNEL.id}>`);
    expect(buttonIds(after)).not.toContain(SHARE_ACTION);
  });

  it('posts once for a double click', async () => {
    const answer = await privateAnswer('vessels dev');
    const clicks: Promise<SignedResponse>[] = [share(answer), share(answer)];
    await Promise.all(clicks);
    await h.settle();
    expect(channelPosts()).toHaveLength(1);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('says the bot is not in the channel, posts nothing, and shares once the bot is invited', async () => {
    const answer = await privateAnswer('vessels dev');
    h.slack.refuseNext('chat.postMessage', 'not_in_channel');
    await share(answer);
    expect(channelPosts()).toHaveLength(0);
    const told = h.ephemeralTexts().at(-1) ?? '';
    expect(told).toContain('I am not a member of it, so nothing was shared');
    expect(told).toContain('/invite @Harbormaster');
    // Invited now: the same button works.
    await share(answer);
    expect(channelPosts()).toHaveLength(1);
  });

  it('leaves answers that are not reads (help) without the button', async () => {
    await h.slash('help logs');
    const help = h.slack.ephemerals().at(-1);
    expect(buttonIds(help)).not.toContain(SHARE_ACTION);
  });
});
