/**
 * Issue 18, point 1: a change that can never be approved is refused when it
 * is requested, naming the rule and who could approve, instead of paging the
 * approvers for votes that can never add up and expiring hours later.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { ALICE, BOB, type BotHarness, SRE_GROUP, startBotHarness } from './bot-harness.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const POLICY = `
version: 1
rules:
  - name: reads
    operations: [formation.show, vessels.list]
  - name: prod-removals
    operations: [formation.remove]
    target: { environment: prod }
    approval: { required: 2, approvers: { groups: [${SRE_GROUP}] } }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

describe('a change nobody could ever approve', () => {
  it('is refused up front, naming the rule and the one person who could approve', async () => {
    h = await startBotHarness({ policy: POLICY });
    const before = h.slack.channelMessages(TEST_CHANNEL.id).length;
    // Bob and Carol are the SREs: with Bob requesting, only Carol may approve, and two are needed.
    await h.slash('formation remove prod arena arena-1', BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toBe(
      `This change could never be approved, so it was not requested: policy rule \`prod-removals\` needs 2 approvals from <!subteam^${SRE_GROUP}> other than the requester, and only <@U0CAROL> qualifies. Ask whoever maintains the policy to add approvers or lower the number required.`,
    );
    // Nothing was posted to the channel and nobody was pinged.
    expect(h.slack.channelMessages(TEST_CHANNEL.id).length).toBe(before);
  });

  it('is accepted when enough others qualify', async () => {
    h = await startBotHarness({ policy: POLICY });
    await h.slash('formation remove prod arena arena-1', ALICE);
    expect(h.lastMessage().text).toMatch(/approval/i);
  });
});
