/**
 * Issue 22, point 9: while a confirmed change is being applied (the hosting
 * API holds the write for 40 s) its message shows "Applying…" and no
 * Confirm/Cancel, so nobody reads live buttons on a change already under
 * way; the final state replaces it when the write returns.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { type BotHarness, clickBody, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { buttonIds, shown } from './harness-extras.js';

const simClock = new ManualClock(Date.now());
let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness({ simClock });
});
afterAll(async () => {
  await h.stop();
});

it('shows "Applying…" without buttons while the API holds the write, then the result', async () => {
  await h.slash('promote game-server:1.2.0 from dev to staging');
  const preview = h.lastMessage();
  expect(buttonIds(preview)).toContain(CHANGE_ACTIONS.confirm);
  h.sim.setFaults([{ method: 'POST', path: '/api/**', latencyMs: 40_000 }]);
  const drawn = h.slack.waitFor(
    (call) =>
      call.method === 'chat.update' &&
      call.body.ts === preview.ts &&
      /Applying/.test(JSON.stringify(call.body)),
  );
  const ack = await postSigned(
    h.eventsUrl,
    SIGNING_SECRET,
    clickBody(h.slack, preview, CHANGE_ACTIONS.confirm),
  );
  expect(ack.status).toBe(200);
  await drawn;
  await simClock.whenSleeping();
  const during = h.slack.message(TEST_CHANNEL.id, preview.ts);
  expect(shown(during)).toMatch(/Applying…/);
  expect(buttonIds(during)).toEqual([]);
  h.sim.clearFaults();
  await simClock.advance(40_000);
  await h.settle();
  const after = h.slack.message(TEST_CHANNEL.id, preview.ts);
  expect(shown(after)).toMatch(/Done/);
  expect(buttonIds(after)).toEqual([]);
});
