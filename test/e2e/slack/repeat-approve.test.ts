/**
 * Issue 18, point 12 (in part): one message per fact. A second click on
 * Approve by the same person records nothing, so it says "you already
 * approved" instead of "Approval recorded" again, and the requester is not
 * told a second time.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { ALICE, BOB, type BotHarness, E2E_POLICY, startBotHarness } from './bot-harness.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

describe('a repeated Approve', () => {
  it('says "you already approved" and tells the requester nothing new', async () => {
    h = await startBotHarness({ policy: E2E_POLICY.replaceAll('required: 1', 'required: 2') });
    await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
    const preview = h.lastMessage();
    const thread = () => h.slack.thread(TEST_CHANNEL.id, preview.ts).map((m) => m.text);
    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toBe(
      'Approval recorded (1 of 2); waiting for 1 more before it is applied.',
    );
    const repliesAfterFirst = thread();
    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toBe(
      'You already approved this change (1 of 2); waiting for 1 more before it is applied.',
    );
    expect(thread()).toEqual(repliesAfterFirst);
  });
});

describe('a double-clicked Confirm', () => {
  it('sends the clicker nothing more: the message in view already says Done', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.1.0 from dev to staging', ALICE);
    // Both clicks come from the message as first drawn, buttons and all, as a double click does.
    const preview = structuredClone(h.lastMessage());
    await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
    const before = h.ephemeralTexts(ALICE).length;
    await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
    expect(h.ephemeralTexts(ALICE).slice(before)).toEqual([]);
  });

  it('still tells someone else who clicks that it is already done', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.1.0 from dev to staging', ALICE);
    const preview = structuredClone(h.lastMessage());
    await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
    await h.click(preview, CHANGE_ACTIONS.confirm, BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toMatch(/^Already done \(applied by <@U0ALICE>\)/);
  });
});
