/**
 * Issue 18.12: the thread reply that asks the approvers ("@sre: … asks for an
 * approval") is marked answered once the change is approved, rejected,
 * cancelled or expired: rewritten in place, saying who answered and how,
 * without buttons or group mentions. One message per fact: no new reply is
 * posted for it.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, SRE_GROUP, startBotHarness } from './bot-harness.js';
import { buttonIds, openedViewId } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

/** ALICE asks for a prod promotion; its channel message and the ask in its thread. */
async function requestProdPromotion(): Promise<{ prod: StoredMessage; ask: () => StoredMessage }> {
  await h.slash('promote game-server:1.2.0 from dev to prod');
  const prod = h.lastMessage();
  const asks = h.slack
    .thread(TEST_CHANNEL.id, prod.ts)
    .filter((m) => m.ts !== prod.ts && /asks for an approval/.test(m.text ?? ''));
  expect(asks).toHaveLength(1);
  const askTs = (asks[0] as StoredMessage).ts;
  return {
    prod,
    ask: () => {
      const now = h.slack.message(TEST_CHANNEL.id, askTs);
      if (!now) throw new Error('the ask is gone');
      return now;
    },
  };
}

const threadLength = (prod: StoredMessage) => h.slack.thread(TEST_CHANNEL.id, prod.ts).length;

describe('the ask for an approval is marked answered', () => {
  it('when approved: by whom, without buttons or the group mention', async () => {
    h = await startBotHarness();
    const { prod, ask } = await requestProdPromotion();
    expect(ask().text).toContain(`<!subteam^${SRE_GROUP}>`);
    await h.click(prod, CHANGE_ACTIONS.approve, BOB);
    expect(ask().text).toMatch(/^:ballot_box_with_check: Answered: /);
    expect(ask().text).toContain(`approved by <@${BOB.id}>`);
    expect(ask().text).not.toContain('<!subteam^');
    expect(buttonIds(ask())).toEqual([]);
  });

  it('when rejected, with who rejected it', async () => {
    h = await startBotHarness();
    const { prod, ask } = await requestProdPromotion();
    await h.click(prod, CHANGE_ACTIONS.reject, BOB);
    await h.submit(
      openedViewId(h),
      { reason: { reason: { type: 'plain_text_input', value: 'not now' } } },
      BOB,
    );
    expect(ask().text).toContain(`<@${BOB.id}> rejected it`);
  });

  it('when the requester cancelled it, and posts no new reply for the answer', async () => {
    h = await startBotHarness();
    const { prod, ask } = await requestProdPromotion();
    const before = threadLength(prod);
    await h.click(prod, CHANGE_ACTIONS.cancel, ALICE);
    expect(ask().text).toContain(`<@${ALICE.id}> cancelled it`);
    expect(ask().text).toMatch(/^:no_entry_sign: Withdrawn: /);
    // The requester cancelled it themselves: nobody else needs a reply about it.
    expect(threadLength(prod)).toBe(before);
  });

  it('when it expired, once housekeeping has expired it', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9, 0));
    h = await startBotHarness({ clock });
    const { ask } = await requestProdPromotion();
    await clock.advance(31 * 60_000);
    await h.running.core.housekeepNow();
    await h.settle();
    expect(ask().text).toContain('it expired');
    expect(ask().text).toContain('0 of 1 approval so far');
    // Nobody answered it (issue 30.7): it does not say so.
    expect(ask().text).toMatch(/^:hourglass: Not answered in time: /);
    expect(ask().text).not.toMatch(/Answered:/);
  });
});
