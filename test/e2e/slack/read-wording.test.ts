/**
 * Issue 18, point 11 (in part): a read is not a change. A read the hosting
 * API refuses (a container the vessel does not have) says the API rejected
 * the request, never "the change"; a form's preview that waits for someone
 * else's approval does not tell the requester to confirm it.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

describe('a read the hosting API refuses', () => {
  it('speaks of the request, not a change', async () => {
    h = await startBotHarness();
    await h.slash('logs dev lobby-1 --container nope', ALICE);
    const answer = h.ephemeralTexts(ALICE).at(-1) ?? '';
    expect(answer).toMatch(/The hosting API rejected the request/);
    expect(answer).not.toMatch(/change/);
  });
});

describe('a form preview that waits for an approver', () => {
  it('closes, and the preview it posted says it waits for an approval, with no Confirm', async () => {
    h = await startBotHarness();
    await h.slash('promote', ALICE);
    const viewId = openedViewId(h);
    const view = h.slack.view(viewId);
    if (!view) throw new Error('no view');
    const res = await h.submit(
      viewId,
      answers(view, { image: 'game-server:1.2.0', targetBranch: 'prod' }),
      ALICE,
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    const preview = h.lastMessage();
    expect(preview.text).toMatch(/^Waiting for approval/);
    expect(shown(preview)).not.toContain('change.confirm');
  });
});
