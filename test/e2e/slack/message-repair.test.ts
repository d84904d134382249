/**
 * Issue 9, defect 10: Slack down exactly when the final message is drawn.
 * The change is applied, the rewrite fails, and the message would keep live
 * Confirm/Cancel buttons; housekeeping finds the finished change whose message
 * does not show it and redraws it once Slack answers again.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, current, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  // The simulator's time stands still: the removed vessel stays terminating, so the follow-up the
  // domain runs after the click draws no state of its own while the test looks at the lost rewrite.
  h = await startBotHarness({ simClock: new ManualClock(Date.now()) });
});
afterEach(async () => {
  await h.stop();
});

it('a final message lost to a Slack outage is redrawn by housekeeping: no live buttons on an applied change', async () => {
  await h.slash('formation remove dev lobby lobby-2');
  const preview = h.lastMessage();
  expect(buttonIds(preview)).toEqual([CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel]);

  // Slack is down for the "Applying…" rewrite and the one after the apply (the bot's client does not retry in tests).
  h.slack.forceOutage('chat.update', 2);
  await h.click(preview, CHANGE_ACTIONS.confirm);
  expect(h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.map((v) => v.name)).toEqual(['lobby-1']);
  expect(h.slack.callsTo('chat.update').map((c) => c.status)).toEqual([503, 503]);
  expect(buttonIds(current(h, preview))).toEqual([CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel]);

  // Slack is back; the next housekeeping pass repairs the message.
  await h.running.core.housekeepNow();
  const repaired = current(h, preview);
  expect(buttonIds(repaired)).toEqual([ROW_ACTIONS.rollback]);
  expect(shown(repaired)).toMatch(/Done/);
  expect(shown(repaired)).toContain('lobby-2');

  // Drawn now: later passes leave it alone.
  const updates = h.slack.callsTo('chat.update').length;
  await h.running.core.housekeepNow();
  expect(h.slack.callsTo('chat.update')).toHaveLength(updates);
});
