/**
 * Approvals end to end: the private `approvals` list an approver asks for,
 * approving or rejecting from it (the change's own channel message is
 * rewritten, wherever the click came from), and who may not approve.
 * Expiry needs time to pass and is covered by the engine's tests with a
 * manual clock.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS, ROW_ACTIONS, SHARE_ACTION } from '../../../src/slack/ids.js';
import type { EphemeralMessage, StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, CAROL, startBotHarness } from './bot-harness.js';
import { buttonIds, buttons, clickEphemeral, current, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const promotions = () => h.sim.countRequests('POST', '/api/container/v1/imagepromotions');
const prodTags = () =>
  h.sim.state
    .listImages('prod')
    .filter((i) => i.spec.image === 'game-server')
    .map((i) => i.spec.tag);

/** ALICE asks for a promotion into prod; returns its channel message. */
async function requestProdPromotion(tag = '1.2.0'): Promise<StoredMessage> {
  await h.slash(`promote game-server:${tag} from dev to prod`);
  const message = h.lastMessage();
  expect(message.text).toMatch(/^Waiting for approval/);
  return message;
}

/** `/harbor approvals` as `user`; returns the private list they got. */
async function approvalsFor(user: typeof BOB): Promise<EphemeralMessage> {
  await h.slash('approvals', user);
  const list = h.slack
    .ephemerals()
    .filter((e) => e.user === user.id)
    .at(-1);
  if (!list) throw new Error(`${user.name} got no answer`);
  return list;
}

describe('approvals list', () => {
  it('shows an SRE the pending prod promotion with Approve and Reject, and not confirm-only changes', async () => {
    const prod = await requestProdPromotion();
    await h.slash('promote game-server:1.1.0 from dev to staging');
    const list = await approvalsFor(BOB);
    expect(list.text).toBe('1 change waiting for your approval');
    expect(shown(list)).toContain('Promote game-server:1.2.0');
    expect(shown(list)).toContain(`Requested by <@${ALICE.id}>`);
    expect(shown(list)).not.toContain('1.1.0');
    expect(buttonIds(list)).toEqual([CHANGE_ACTIONS.approve, CHANGE_ACTIONS.reject, SHARE_ACTION]);
    // The buttons carry the change the channel message carries.
    const ids = new Set(
      [...buttons(list), ...buttons(prod)].filter((b) => b.action_id !== SHARE_ACTION).map((b) => b.value),
    );
    expect(ids.size).toBe(1);
    // Reject is styled as danger; its modal asks for the reason (notifications.test.ts).
    expect(buttons(list)[1]?.style).toBe('danger');
  });

  it('tells the requester, who may not approve, that nothing waits for them', async () => {
    await requestProdPromotion();
    const list = await approvalsFor(ALICE);
    expect(list.text).toMatch(/^Nothing is waiting for you/);
    expect(buttonIds(list)).toEqual([SHARE_ACTION]);
  });
});

describe('approving from the list', () => {
  it('BOB’s Approve in his private list applies the change and rewrites the original channel message', async () => {
    const prod = await requestProdPromotion();
    const list = await approvalsFor(BOB);
    await clickEphemeral(h, list, CHANGE_ACTIONS.approve, BOB);

    expect(promotions()).toBe(1);
    expect(prodTags()).toContain('1.2.0');
    const done = current(h, prod);
    expect(done.text).toMatch(/^Done/);
    expect(shown(done)).toContain(BOB.id);
    // Done: the only button left is Roll back (the promotion rolled out through an ImageUpdater; issue 28).
    expect(buttonIds(done)).toEqual([ROW_ACTIONS.rollback]);
    // The list is not where the outcome lives: nothing new was posted in the channel.
    // (Replies in the change's thread tell the requester and the approvers; see notifications.test.ts.)
    expect(h.slack.callsTo('chat.postMessage').filter((c) => !c.body.thread_ts)).toHaveLength(1);
    // The list does not show the change message, so BOB is told the outcome privately.
    expect(h.ephemeralTexts(BOB).at(-1)).toMatch(
      /^Done: .*game-server.*1\.2\.0.*<#C0OPS> has the details\.$/,
    );

    // CAROL's late click on the same change applies nothing twice.
    await clickEphemeral(h, list, CHANGE_ACTIONS.approve, CAROL);
    expect(promotions()).toBe(1);
    // The list she clicked in is replaced: the outcome on top, and the finished change no longer offered.
    const answer = h.slack.callsTo('response_url').at(-1)?.body;
    expect(String(answer?.text)).toContain(`Already done (applied by <@${BOB.id}>); nothing more to do.`);
    expect(answer?.replace_original).toBe(true);
    expect(JSON.stringify(answer?.blocks)).not.toContain(CHANGE_ACTIONS.approve);
  });

  it('Reject closes the change: the channel message says rejected by whom, nothing is promoted', async () => {
    const prod = await requestProdPromotion();
    const list = await approvalsFor(CAROL);
    await clickEphemeral(h, list, CHANGE_ACTIONS.reject, CAROL);
    await h.submit(
      openedViewId(h),
      { reason: { reason: { type: 'plain_text_input', value: 'not now' } } },
      CAROL,
    );

    expect(promotions()).toBe(0);
    expect(prodTags()).toEqual(['1.0.0']);
    const closed = current(h, prod);
    expect(closed.text).toMatch(/^Rejected/);
    expect(shown(closed)).toContain(`Rejected by <@${CAROL.id}>; nothing was applied.`);
    expect(buttonIds(closed)).toEqual([]);
    expect(h.ephemeralTexts(CAROL).at(-1)).toMatch(/^Rejected: .*; nothing was applied\./);

    // Gone from BOB's list too.
    expect((await approvalsFor(BOB)).text).toMatch(/^Nothing is waiting for you/);
  });

  it('the requester cannot approve through a stale or forwarded list button either', async () => {
    await requestProdPromotion();
    const list = await approvalsFor(BOB);
    // ALICE clicks the same button (same change id) as if the list had been shown to her.
    await clickEphemeral(h, list, CHANGE_ACTIONS.approve, ALICE);
    expect(promotions()).toBe(0);
    expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/someone else must approve it/);
    expect(prodTags()).toEqual(['1.0.0']);
  });

  it('a user outside the approver group is refused', async () => {
    const prod = await requestProdPromotion();
    const DAVE = { id: 'U0DAVE', name: 'dave' };
    await h.click(prod, CHANGE_ACTIONS.approve, DAVE);
    expect(promotions()).toBe(0);
    expect(h.ephemeralTexts(DAVE).at(-1)).toMatch(/not an approver for this change/);
    expect(current(h, prod).text).toMatch(/^Waiting for approval/);
  });
});
