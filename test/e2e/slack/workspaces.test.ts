/**
 * Clicks from another Slack workspace (issue 9, defect 6). In a Slack Connect
 * channel or an org-wide install, people of other workspaces see the same
 * buttons. By default only people in the workspace a change was requested in
 * may act on it; a policy's `workspaces:` list widens that. The audit records
 * the clicker's workspace, not the change's.
 */
import { afterEach, expect, it } from '@jest/globals';
import { DEFAULT_POLICY_YAML } from '../../../src/policy/default-policy.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL, TEST_TEAM, type TestUser } from '../../../src/workspace/identity.js';
import { blockActionsPayload, viewSubmissionPayload } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttons, current, openedViewId } from './harness-extras.js';

const OTHER_TEAM = 'T0OTHERORG';
const MALLORY: TestUser = { id: 'U0MALLORY', name: 'mallory' };

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

/** A click on `message` by `user` of workspace `team`, as Slack sends it from a shared channel. */
async function clickAs(message: StoredMessage, actionId: string, user: TestUser, team: string) {
  const payload = blockActionsPayload({
    actionId,
    user,
    channel: TEST_CHANNEL,
    message,
    responseUrl: h.slack.responseUrl({ channel: TEST_CHANNEL.id, user: user.id, messageTs: message.ts }),
    triggerId: h.slack.triggerId(),
  });
  return h.interact({
    ...payload,
    user: { ...payload.user, team_id: team },
    team: { id: team, domain: 'elsewhere' },
  });
}

async function requestProdPromotion(): Promise<{ message: StoredMessage; changeId: string }> {
  await h.slash('promote game-server:1.2.0 from dev to prod');
  const message = h.lastMessage();
  expect(message.text).toMatch(/^Waiting for approval/);
  return { message, changeId: buttons(message)[0]?.value ?? '' };
}

const promotions = () => h.sim.countRequests('POST', '/api/container/v1/imagepromotions');

it('the built-in default policy refuses an approval and a cancel from another workspace, and audits the clicker’s', async () => {
  h = await startBotHarness({ policy: DEFAULT_POLICY_YAML });
  const { message, changeId } = await requestProdPromotion();

  await clickAs(message, CHANGE_ACTIONS.approve, MALLORY, OTHER_TEAM);
  await clickAs(message, CHANGE_ACTIONS.cancel, MALLORY, OTHER_TEAM);
  expect(promotions()).toBe(0);
  const told = h.ephemeralTexts(MALLORY);
  expect(told).toHaveLength(2);
  for (const text of told) expect(text).toMatch(/requested in another Slack workspace/);
  expect(current(h, message).text).toMatch(/^Waiting for approval/);

  // Someone of the change's own workspace still can.
  await clickAs(message, CHANGE_ACTIONS.approve, BOB, TEST_TEAM.id);
  expect(promotions()).toBe(1);

  const audit = await h.running.core.store.queryAudit({ changeId });
  const refused = audit.filter((e) => e.action.endsWith('_refused'));
  expect(refused.map((e) => [e.action, e.actor, e.workspace])).toEqual([
    ['approve_refused', MALLORY.id, OTHER_TEAM],
    ['cancel_refused', MALLORY.id, OTHER_TEAM],
  ]);
  expect(audit.find((e) => e.action === 'approve')).toMatchObject({ actor: BOB.id, workspace: TEST_TEAM.id });
});

it('a policy listing workspaces lets a listed partner approve, recorded under the partner’s workspace', async () => {
  h = await startBotHarness({
    policy: `${DEFAULT_POLICY_YAML}\nworkspaces: [${TEST_TEAM.id}, ${OTHER_TEAM}]\n`,
  });
  const { message, changeId } = await requestProdPromotion();
  await clickAs(message, CHANGE_ACTIONS.approve, MALLORY, OTHER_TEAM);
  expect(promotions()).toBe(1);
  const audit = await h.running.core.store.queryAudit({ changeId });
  expect(audit.find((e) => e.action === 'approve')).toMatchObject({
    actor: MALLORY.id,
    workspace: OTHER_TEAM,
  });
});

it('a policy listing workspaces refuses a request from an unlisted one', async () => {
  h = await startBotHarness({ policy: `${DEFAULT_POLICY_YAML}\nworkspaces: [T0SOMEWHERE]\n` });
  await h.slash('promote game-server:1.2.0 from dev to prod');
  expect(h.ephemeralTexts().at(-1)).toMatch(/Your Slack workspace \(T0HARBOR\) is not one the policy allows/);
  expect(h.slack.channelMessages(TEST_CHANNEL.id)).toEqual([]);
});

it('a reject submitted by someone of another workspace is refused and audited under their workspace, whatever team the view names', async () => {
  h = await startBotHarness({ policy: DEFAULT_POLICY_YAML });
  const { message, changeId } = await requestProdPromotion();
  // The reason modal was opened in the change's workspace; the submission comes from another one's user.
  await h.click(message, CHANGE_ACTIONS.reject, BOB);
  const viewId = openedViewId(h);
  const payload = viewSubmissionPayload({
    view: h.slack.view(viewId),
    viewId,
    user: MALLORY,
    values: { reason: { reason: { type: 'plain_text_input', value: 'not yours to stop' } } },
  });
  await h.interact({
    ...payload,
    user: { ...payload.user, team_id: OTHER_TEAM },
    team: { id: TEST_TEAM.id, domain: 'home' },
  });

  expect(current(h, message).text).toMatch(/^Waiting for approval/);
  const audit = await h.running.core.store.queryAudit({ changeId });
  expect(audit.filter((e) => e.action === 'reject')).toEqual([]);
  expect(audit.find((e) => e.action === 'reject_refused')).toMatchObject({
    actor: MALLORY.id,
    workspace: OTHER_TEAM,
  });
});
