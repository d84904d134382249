/**
 * Issue 13, point 1: a destructive change that needs approval is as guarded
 * as one that needs only a confirmation. The approval that applies it carries
 * the danger dialog, and the preview says it is destructive and what it takes
 * down (here: the last Vessel of the prod Formation `arena`).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttons, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

describe('a destructive change awaiting approval', () => {
  it('says destructive, warns about the last vessel and guards Approve with a danger dialog', async () => {
    await h.slash('formation remove prod arena arena-1');
    const preview = h.lastMessage();
    expect(preview.text).toMatch(/^Waiting for approval: destructive change/);
    expect(shown(preview)).toContain('arena-1 is the last vessel of formation arena');
    const approve = buttons(preview).find((b) => b.action_id === CHANGE_ACTIONS.approve);
    expect(approve?.style).toBe('danger');
    expect(approve?.confirm?.style).toBe('danger');
    expect(approve?.confirm?.title?.text).toBe('Approve and apply this destructive change?');
    expect(JSON.stringify(approve?.confirm)).toContain('last vessel of formation arena');

    // The approver's private list guards the same button the same way.
    await h.slash('approvals', BOB);
    const list = h.slack
      .ephemerals()
      .filter((e) => e.user === BOB.id)
      .at(-1);
    const listed = buttons(list).find((b) => b.action_id === CHANGE_ACTIONS.approve);
    expect(listed?.confirm?.title?.text).toBe('Approve and apply this destructive change?');
  });

  it('a destructive confirm-only change in dev carries the warning only when it applies', async () => {
    await h.slash('formation remove dev lobby lobby-1');
    const preview = h.lastMessage();
    // lobby keeps lobby-2 in the same region: nothing worse than the removal itself.
    expect(shown(preview)).not.toContain('last vessel');
    expect(buttons(preview)[0]?.confirm?.title?.text).toBe('Apply this destructive change?');
  });

  it('a prod change that removes nothing keeps a plain Approve', async () => {
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const approve = buttons(h.lastMessage()).find((b) => b.action_id === CHANGE_ACTIONS.approve);
    expect(approve?.style).toBe('primary');
    expect(approve?.confirm).toBeUndefined();
  });
});
