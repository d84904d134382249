/**
 * An org-wide install on Enterprise Grid: the bot's token is an org token,
 * and Slack answers usergroups.users.list only with the workspace to look in
 * (`team_id`). The stand-in plays that install; an SRE's approval must still
 * resolve the SRE group, looked up in the approver's workspace.
 */
import { afterEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_TEAM } from '../../../src/workspace/identity.js';
import { BOB, type BotHarness, SRE_GROUP, startBotHarness } from './bot-harness.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

it('passes team_id to usergroups.users.list under an org token, so a group approver can approve', async () => {
  h = await startBotHarness({ enterpriseInstall: true });
  await h.slash('promote game-server:1.2.0 from dev to prod');
  const message = h.lastMessage();
  expect(message.text).toMatch(/^Waiting for approval/);
  await h.click(message, CHANGE_ACTIONS.approve, BOB);
  await h.running.bot.followUpsDone();

  const lookups = h.slack.callsTo('usergroups.users.list');
  expect(lookups.length).toBeGreaterThanOrEqual(1);
  for (const call of lookups)
    expect(call.body).toMatchObject({ usergroup: SRE_GROUP, team_id: TEST_TEAM.id });
  expect(
    h.sim.state.listImages('prod').some((i) => i.spec.image === 'game-server' && i.spec.tag === '1.2.0'),
  ).toBe(true);
});

it('sends no team_id for a workspace install', async () => {
  h = await startBotHarness();
  await h.slash('promote game-server:1.2.0 from dev to prod');
  await h.click(h.lastMessage(), CHANGE_ACTIONS.approve, BOB);
  const lookups = h.slack.callsTo('usergroups.users.list');
  expect(lookups.length).toBeGreaterThanOrEqual(1);
  for (const call of lookups) expect(call.body.team_id).toBeUndefined();
});
