/**
 * Issue 18.8, "Tails bury approvals in a release thread", the release side,
 * end to end: the release message lists what waits for approval with its
 * Approve and Reject (the change buttons, with their spoken labels), so an
 * approver acts from the top of the thread; it is redrawn as the changes move.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS, REJECT_REASON_INPUT } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttons, current, openedViewId, shown } from './harness-extras.js';
import { latestPreview, startRelease } from './release-helpers.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

it('what waits for approval is on the release message with Approve and Reject; a click there decides it', async () => {
  const release = await startRelease(h, 'Prod push');
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  await h.slash('formation remove prod arena arena-1', ALICE);
  const removal = latestPreview(h, release);
  expect(removal.text).toMatch(/^Waiting for approval: destructive change: Remove vessel arena-1/);

  const board = current(h, release);
  expect(shown(board)).toContain('Waiting for approval (2)');
  const approvals = buttons(board).filter(
    (b) => b.action_id === CHANGE_ACTIONS.approve || b.action_id === CHANGE_ACTIONS.reject,
  );
  const [promotion, removalChange] = await h.running.core.store.listChanges({});
  expect(approvals.map((b) => [b.action_id, b.value])).toEqual([
    [CHANGE_ACTIONS.approve, promotion?.id],
    [CHANGE_ACTIONS.reject, promotion?.id],
    [CHANGE_ACTIONS.approve, removalChange?.id],
    [CHANGE_ACTIONS.reject, removalChange?.id],
  ]);
  expect((approvals[0] as { accessibility_label?: string }).accessibility_label).toMatch(
    /^Approve: Promote game-server:1\.2\.0/,
  );
  // Approving the removal applies a destructive change: the button asks first, as on the change message.
  expect(approvals[2]?.confirm?.style).toBe('danger');

  // The approver approves from the release message: the promotion applies, its message and the board follow.
  await h.click(board, CHANGE_ACTIONS.approve, BOB);
  const afterApprove = shown(current(h, release));
  expect(afterApprove).toContain('Waiting for approval (1)');
  expect(afterApprove).toContain('Steps done (1)');
  const promotionMessage = (await h.running.core.store.changeMessages([promotion?.id ?? ''])).get(
    promotion?.id ?? '',
  )?.messageTs;
  expect(h.slack.message(TEST_CHANNEL.id, promotionMessage ?? '')?.text ?? '').toMatch(/^Done/);

  // Reject from the release message opens the reason modal; the rejection is then on the board.
  const rejectOn = current(h, release);
  const rejectButton = buttons(rejectOn).find(
    (b) => b.action_id === CHANGE_ACTIONS.reject && b.value === removalChange?.id,
  );
  expect(rejectButton).toBeDefined();
  await h.click(rejectOn, CHANGE_ACTIONS.reject, BOB);
  await h.submit(
    openedViewId(h),
    { [REJECT_REASON_INPUT]: { [REJECT_REASON_INPUT]: { type: 'plain_text_input', value: 'not now' } } },
    BOB,
  );
  const final = shown(current(h, release));
  expect(final).not.toContain('Waiting for approval');
  expect(final).toContain(`rejected by <@${BOB.id}>`);
});
