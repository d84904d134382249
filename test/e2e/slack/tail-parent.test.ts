/**
 * Issue 13, point 9: a tail's own "Tailing …" parent message is a record too.
 * After Stop it says who tailed what, who stopped it and when, so the channel
 * no longer shows a live tail that is not.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { startTailBot, type TailBot } from '../../slack/tails/e2e-bot.js';
import { BOB } from './bot-harness.js';
import { shown } from './harness-extras.js';

let h: TailBot;
beforeEach(async () => {
  h = await startTailBot();
});
afterEach(async () => {
  await h.stop();
});

it('Stop redraws the parent message: stopped by whom, when, where the lines are', async () => {
  await h.slash('logs dev lobby-1 --follow');
  await h.settle();
  const [record] = await h.tails();
  if (!record?.threadTs || !record.messageTs) throw new Error('no tail was recorded');
  const parentTs = record.threadTs;
  const tailTs = record.messageTs;
  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');
  expect(shown(h.message(parentTs))).toContain('Tailing *lobby-1* (dev)');

  await h.click(h.message(tailTs), TAIL_ACTIONS.stop, BOB);
  await h.pumpUntil(() => shown(h.message(parentTs)).includes('Tailed'), 'the parent to be redrawn');
  const parent = shown(h.message(parentTs));
  expect(parent).toContain('Tailed *lobby-1* (dev) for <@U0ALICE>; stopped by <@U0BOB> <!date^');
  expect(parent).toContain('The last lines are in the thread.');
  expect(parent).not.toContain('Live lines');
});
