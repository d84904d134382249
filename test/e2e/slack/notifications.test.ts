/**
 * Issue 13, point 2: people are told. The approvers the policy names are
 * asked in the change's thread; the requester is mentioned there when their
 * change is approved, rejected, applied or failed; in a release thread the
 * final outcome is broadcast to the channel; Reject asks for a reason in a
 * modal and shows it; acting from `/harbor approvals` refreshes that list.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS, REJECT_CALLBACK, RELEASE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import type { EphemeralMessage, StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, CAROL, E2E_POLICY, SRE_GROUP, startBotHarness } from './bot-harness.js';
import { answers, buttonIds, clickEphemeral, current, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

/** Bot replies in the thread of `message`, oldest first. */
const replies = (message: StoredMessage) => h.slack.thread(TEST_CHANNEL.id, message.ts);

async function prodPromotion(): Promise<StoredMessage> {
  await h.slash('promote game-server:1.2.0 from dev to prod');
  return h.lastMessage();
}

async function approvalsFor(user: typeof BOB): Promise<EphemeralMessage> {
  await h.slash('approvals', user);
  const list = h.slack
    .ephemerals()
    .filter((e) => e.user === user.id)
    .at(-1);
  if (!list) throw new Error('no list');
  return list;
}

/** The Reject modal the last click opened: its view id, after checking it asks for a reason. */
function rejectModal(): string {
  const viewId = openedViewId(h);
  const view = h.slack.view(viewId);
  expect(view?.callback_id).toBe(REJECT_CALLBACK);
  expect(shown(view)).toContain('Why are you rejecting it?');
  return viewId;
}

const reason = (text: string) => ({ reason: { reason: { type: 'plain_text_input', value: text } } });

describe('the requester and the approvers are told in the thread', () => {
  it('asks the SRE group, then tells ALICE her prod promotion was applied and who approved it', async () => {
    h = await startBotHarness();
    const prod = await prodPromotion();
    const [ask] = replies(prod);
    expect(ask?.text).toContain(`<!subteam^${SRE_GROUP}>`);
    expect(ask?.text).toContain(`<@${ALICE.id}> asks for an approval of *Promote game-server:1.2.0`);

    await h.click(prod, CHANGE_ACTIONS.approve, BOB);
    const done = replies(prod).at(-1);
    expect(done?.text).toMatch(
      new RegExp(`^:white_check_mark: <@${ALICE.id}>, your change is done \\(approved by <@${BOB.id}>\\)`),
    );
    // Not a release thread: the reply stays in the thread.
    const post = h.slack.callsTo('chat.postMessage').find((c) => c.body.text === done?.text);
    expect(post?.body.reply_broadcast).toBeUndefined();
  });

  it('tells ALICE when her change failed, with why', async () => {
    h = await startBotHarness();
    const prod = await prodPromotion();
    h.sim.setFaults([{ method: 'POST', path: '/api/container/v1/imagepromotions/**', status: 422 }]);
    await h.click(prod, CHANGE_ACTIONS.approve, BOB);
    expect(current(h, prod).text).toMatch(/^Failed/);
    expect(replies(prod).at(-1)?.text).toMatch(new RegExp(`^:x: <@${ALICE.id}>, your change failed`));
  });

  it('with two approvals required, the first one is told to ALICE and the count is kept', async () => {
    h = await startBotHarness({ policy: E2E_POLICY.replaceAll('required: 1', 'required: 2') });
    const prod = await prodPromotion();
    expect(replies(prod)[0]?.text).toContain('asks for 2 approvals');
    await h.click(prod, CHANGE_ACTIONS.approve, BOB);
    expect(replies(prod).at(-1)?.text).toBe(
      `<@${ALICE.id}>, <@${BOB.id}> approved your change (1 of 2): *Promote game-server:1.2.0 from dev to prod*. It waits for 1 more approval.`,
    );
  });

  it('no notice when the requester confirmed her own change: she saw it happen', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.1.0 from dev to staging');
    const preview = h.lastMessage();
    await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
    expect(current(h, preview).text).toMatch(/^Done/);
    expect(replies(preview).filter((m) => m.text.includes('your change'))).toEqual([]);
  });
});

describe('in a release thread', () => {
  it('the final outcome is broadcast to the channel as well', async () => {
    h = await startBotHarness();
    await h.slash('release start Season 5');
    const release = h.lastMessage();
    await h.click(release, RELEASE_ACTIONS.promote);
    const viewId = openedViewId(h);
    const view = h.slack.view(viewId);
    if (!view) throw new Error('no modal');
    await h.submit(viewId, answers(view, { image: 'game-server:1.2.0', targetBranch: 'prod' }));
    const promote = replies(release).find((m) => /^Waiting for approval/.test(m.text));
    if (!promote) throw new Error('no preview in the release thread');
    await h.click(promote, CHANGE_ACTIONS.approve, BOB);
    const post = h.slack
      .callsTo('chat.postMessage')
      .find((c) => String(c.body.text).includes('your change is done'));
    expect(post?.body).toMatchObject({ thread_ts: release.ts, reply_broadcast: 'true' });
    expect(String(post?.body.text)).toContain(`<@${ALICE.id}>`);
  });
});

describe('Reject asks for a reason', () => {
  it('opens a modal, insists on a reason, and shows it on the message and to the requester', async () => {
    h = await startBotHarness();
    const prod = await prodPromotion();
    await h.click(prod, CHANGE_ACTIONS.reject, CAROL);
    // Nothing is rejected by the click alone.
    expect(current(h, prod).text).toMatch(/^Waiting for approval/);
    const viewId = rejectModal();

    const empty = await h.submit(viewId, reason('   '), CAROL);
    expect(empty.body).toMatchObject({ response_action: 'errors', errors: { reason: expect.any(String) } });
    expect(current(h, prod).text).toMatch(/^Waiting for approval/);

    await h.submit(viewId, reason('1.2.0 has the _matchmaking_ bug; wait for 1.2.1'), CAROL);
    const closed = current(h, prod);
    expect(closed.text).toMatch(/^Rejected/);
    expect(shown(closed)).toContain('*Reason:* `1.2.0 has the _matchmaking_ bug; wait for 1.2.1`');
    expect(buttonIds(closed)).toEqual([]);
    const told = replies(prod).at(-1);
    expect(told?.text).toMatch(
      new RegExp(`^:no_entry: <@${ALICE.id}>, <@${CAROL.id}> rejected your change: .*Nothing was applied\\.`),
    );
    expect(told?.text).toContain('wait for 1.2.1');
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);
    const audit = await h.running.core.store.queryAudit({});
    expect(audit.find((e) => e.action === 'reject')?.detail).toEqual({
      reason: '1.2.0 has the _matchmaking_ bug; wait for 1.2.1',
    });
  });

  it('an outsider who clicks Reject is told so in the modal, before typing a reason', async () => {
    h = await startBotHarness();
    const prod = await prodPromotion();
    const DAVE = { id: 'U0DAVE', name: 'dave' };
    await h.click(prod, CHANGE_ACTIONS.reject, DAVE);
    const view = h.slack.view(openedViewId(h));
    expect(shown(view)).toContain('You are not an approver for this change');
    expect(current(h, prod).text).toMatch(/^Waiting for approval/);
  });
});

describe('acting from the approvals list refreshes it', () => {
  it('Approve replaces the list with the outcome and what still waits', async () => {
    h = await startBotHarness();
    await prodPromotion();
    await h.slash('promote game-server:1.1.0 from dev to prod');
    const list = await approvalsFor(BOB);
    expect(list.text).toBe('2 changes waiting for your approval');
    await clickEphemeral(h, list, CHANGE_ACTIONS.approve, BOB);
    const fresh = h.slack.ephemerals().find((e) => e.messageTs === list.messageTs);
    expect(fresh?.replaced).toHaveLength(1);
    expect(fresh?.text).toMatch(/^Done: .*1\.2\.0/);
    expect(shown(fresh)).toContain('1 more change waiting for your approval');
    expect(shown(fresh)).toContain('1.1.0');
    expect(shown(fresh)).not.toContain('Promote game-server:1.2.0');
  });

  it('Reject from the list asks why, then replaces the list', async () => {
    h = await startBotHarness();
    const prod = await prodPromotion();
    const list = await approvalsFor(CAROL);
    await clickEphemeral(h, list, CHANGE_ACTIONS.reject, CAROL);
    await h.submit(rejectModal(), reason('not during the tournament'), CAROL);
    expect(current(h, prod).text).toMatch(/^Rejected/);
    const fresh = h.slack.ephemerals().find((e) => e.messageTs === list.messageTs);
    expect(fresh?.text).toMatch(/^Rejected: .*nothing was applied/);
    expect(shown(fresh)).toContain('Nothing else is waiting for you.');
    expect(buttonIds(fresh)).toEqual([]);
  });
});
