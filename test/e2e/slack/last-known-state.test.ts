/**
 * Issue 18, point 4: the change's own message shows the last state its
 * follow-up saw, not the state at apply. A delete no longer keeps
 * "Terminating" once the thread says the vessel is gone.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { current, shown, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

describe('the top message of a change', () => {
  it('shows the last state the follow-up saw: a deleted vessel is gone, not terminating', async () => {
    h = await startBotHarness();
    await h.slash('vessel delete dev duel-1', ALICE);
    const preview = h.lastMessage();
    await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
    await waitForThreadReply(h, preview, /duel-1 is gone/);
    await h.running.bot.followUpsDone();
    const top = current(h, preview);
    expect(top.text).toBe('Done: Deleted vessel duel-1 in dev');
    expect(shown(top)).toMatch(/\*State\*[\\n]+gone/);
    expect(shown(top)).not.toMatch(/terminating/i);
  });
});
