/**
 * Issue 30, point 1: a click on the Home tab comes without a response_url.
 * Every Home click that does not win (self-approval, a clicker who is not an
 * approver, another workspace, the loser of two approvers clicking at once)
 * is answered where the person is, on their Home tab, and counted as the
 * refusal it is, never as an error that pages on-call.
 */
import { afterEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { appHomeOpenedBody, blockActionsPayload, postSigned } from '../../../src/workspace/signing.js';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, CAROL, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { get, shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

async function openTab(user: string): Promise<void> {
  const res = await postSigned(h.eventsUrl, SIGNING_SECRET, appHomeOpenedBody(user, 'home'), {
    contentType: 'application/json',
  });
  expect(res.status).toBe(200);
  await h.settle();
}

function homeOf(user: string): StoredView {
  const view = h.slack.homeView(user);
  if (!view) throw new Error(`no Home tab for ${user}`);
  return view;
}

/** Every `harbor_errors_total` sample, as lines. */
async function errorSamples(): Promise<string[]> {
  const text = (await get(h, '/metrics')).text;
  return text.split('\n').filter((l) => l.startsWith('harbor_errors_total{'));
}

/** A click on `action` in `view` (someone's Home tab) by `user` of workspace `team`. */
async function clickOnHome(view: StoredView, action: string, user: typeof ALICE, team?: string) {
  const payload = blockActionsPayload({ actionId: action, view, user });
  const res = await h.interact(
    team
      ? { ...payload, user: { ...payload.user, team_id: team }, team: { id: team, domain: 'elsewhere' } }
      : payload,
  );
  expect(res.status).toBe(200);
  await h.settle();
}

it('answers the loser of two approvers clicking at once on their Home tab, and counts no error', async () => {
  h = await startBotHarness();
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  await openTab(BOB.id);
  await openTab(CAROL.id);
  const bobs = homeOf(BOB.id);
  const carols = homeOf(CAROL.id);
  await Promise.all([
    clickOnHome(bobs, CHANGE_ACTIONS.approve, BOB),
    clickOnHome(carols, CHANGE_ACTIONS.approve, CAROL),
  ]);
  await h.settle();
  const promotions = h.sim.countRequests('POST', '/api/container/v1/imagepromotions');
  expect(promotions).toBe(1);
  const tops = [BOB.id, CAROL.id].map((u) => shown(homeOf(u)).split('Waiting for you')[0] ?? '');
  // The winner hears it went through; the one who lost hears it is approved already, each on their own Home tab.
  expect(
    tops.filter((t) => /Approved|Done|applied/.test(t) && !/about to be applied|already/i.test(t)),
  ).toHaveLength(1);
  expect(
    tops.filter((t) => /approved and about to be applied|Already done|already approved/i.test(t)),
  ).toHaveLength(1);
  expect(h.logs.lines.join('\n')).not.toMatch(/respond is not a function/);
  expect(await errorSamples()).toEqual([]);
});

it('tells a requester approving their own change from Home why not, on their Home tab', async () => {
  h = await startBotHarness();
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  await openTab(BOB.id);
  await openTab(ALICE.id);
  // Alice's own Home shows no Approve for her change; the click comes from a stale or forged view.
  await clickOnHome(homeOf(BOB.id), CHANGE_ACTIONS.approve, ALICE);
  const top = shown(homeOf(ALICE.id)).split('Waiting for you')[0] ?? '';
  expect(top).toMatch(/You requested this change, so someone else must approve it/);
  expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);
  expect(h.logs.lines.join('\n')).not.toMatch(/respond is not a function/);
  expect(await errorSamples()).toEqual([]);
});

it('tells someone of another workspace on their Home tab that the change is not theirs to approve', async () => {
  h = await startBotHarness();
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  await openTab(BOB.id);
  const MALLORY = { id: 'U0MALLORY', name: 'mallory' };
  await clickOnHome(homeOf(BOB.id), CHANGE_ACTIONS.approve, MALLORY, 'T0OTHERORG');
  expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);
  expect(shown(h.slack.homeView(MALLORY.id))).toMatch(/another Slack workspace/);
  expect(await errorSamples()).toEqual([]);
});
