/**
 * Issue 13, point 7: a refusal says who can help. It names the groups and
 * people the rule lists (as mentions), links the channels it allows, uses the
 * operation's words instead of its policy id, and reads as sentences.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, BOB, type BotHarness, SRE_GROUP, startBotHarness } from './bot-harness.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const POLICY = `
version: 1
rules:
  - name: prod-deletes
    operations: [vessel.delete]
    target: { environment: prod }
    requesters: { groups: [${SRE_GROUP}], users: [U0LEAD] }
    channels: [C0PRODOPS]
  - name: prod-promotions
    operations: [image.promote]
    target: { branch: prod }
    approval: { required: 1, approvers: { groups: [${SRE_GROUP}] } }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

describe('policy refusals', () => {
  it('name the groups and people who may request it, in the operation’s own words', async () => {
    h = await startBotHarness({ policy: POLICY });
    await h.slash('vessel delete prod arena-1', ALICE);
    expect(h.ephemeralTexts(ALICE).at(-1)).toBe(
      `You are not allowed to delete vessel arena-1 in environment prod: policy rule \`prod-deletes\` lets only <!subteam^${SRE_GROUP}> or <@U0LEAD> do it; ask one of them to request it.`,
    );
  });

  it('link the channels a rule allows', async () => {
    h = await startBotHarness({ policy: POLICY });
    await h.slash('vessel delete prod arena-1', BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toBe(
      'You can not delete vessel arena-1 in environment prod from this channel: policy rule `prod-deletes` allows it only in <#C0PRODOPS>. Run the command there.',
    );
  });

  it('tell a would-be approver who the approvers are', async () => {
    h = await startBotHarness({ policy: POLICY });
    await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
    const DAVE = { id: 'U0DAVE', name: 'dave' };
    await h.click(h.lastMessage(), CHANGE_ACTIONS.approve, DAVE);
    expect(h.ephemeralTexts(DAVE).at(-1)).toBe(
      `You are not an approver for this change: policy rule \`prod-promotions\` needs approval from <!subteam^${SRE_GROUP}>.`,
    );
    await h.click(h.lastMessage(), CHANGE_ACTIONS.approve, ALICE);
    expect(h.ephemeralTexts(ALICE).at(-1)).toBe(
      `You requested this change, so someone else must approve it: <!subteam^${SRE_GROUP}> (policy rule \`prod-promotions\` does not allow self-approval).`,
    );
  });
});
