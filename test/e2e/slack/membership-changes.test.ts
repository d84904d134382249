/**
 * Issue 22, point 3: someone removed from a user group loses what the group
 * gave them at once, not a minute later. Their earlier approval stops
 * counting, their next click is refused, and a requester removed from the
 * requesters' group can no longer confirm. Membership is read from Slack when
 * a click is judged (docs/policy.md).
 */
import { afterEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, BOB, type BotHarness, CAROL, SRE_GROUP, startBotHarness } from './bot-harness.js';
import { buttonIds, shown } from './harness-extras.js';

const DAVE = { id: 'U0DAVE', name: 'dave' };
const DEVS = 'S0DEVS';

const POLICY = `
version: 1
rules:
  - name: reads
    operations: [images.list, vessels.list, formation.show, region.show, logs.read]
  - name: prod-promotions
    operations: [image.promote]
    target: { branch: prod }
    approval: { required: 2, approvers: { groups: [${SRE_GROUP}] } }
  - name: staging-promotions
    operations: [image.promote]
    target: { branch: staging }
    requesters: { groups: [${DEVS}] }
    approval: { mode: confirm }
`;

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

it("a removed approver's earlier vote stops counting and their next click is refused", async () => {
  h = await startBotHarness({ policy: POLICY });
  h.slack.usergroups.set(SRE_GROUP, [BOB.id, CAROL.id, DAVE.id]);
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  const preview = h.lastMessage();
  await h.click(preview, CHANGE_ACTIONS.approve, BOB);
  expect(h.ephemeralTexts(BOB).at(-1)).toMatch(/Approval recorded \(1 of 2\)/);

  // Bob leaves the SRE group; Carol's approval alone is not two.
  h.slack.usergroups.set(SRE_GROUP, [CAROL.id, DAVE.id]);
  await h.click(preview, CHANGE_ACTIONS.approve, CAROL);
  expect(h.ephemeralTexts(CAROL).at(-1)).toMatch(/Approval recorded \(1 of 2\)/);
  expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);
  expect(buttonIds(h.lastMessage())).toContain(CHANGE_ACTIONS.approve);

  await h.click(preview, CHANGE_ACTIONS.approve, BOB);
  expect(h.ephemeralTexts(BOB).at(-1)).toMatch(/You are not an approver for this change/);

  // A current member's approval makes two.
  await h.click(preview, CHANGE_ACTIONS.approve, DAVE);
  expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);
  expect(shown(h.lastMessage())).toMatch(/Done/);
});

it('a requester removed from the requesters group can no longer confirm', async () => {
  h = await startBotHarness({ policy: POLICY });
  h.slack.usergroups.set(DEVS, [ALICE.id]);
  await h.slash('promote game-server:1.2.0 from dev to staging', ALICE);
  const preview = h.lastMessage();
  expect(buttonIds(preview)).toContain(CHANGE_ACTIONS.confirm);
  h.slack.usergroups.set(DEVS, []);
  await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
  expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/not allowed/);
  expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);
});
