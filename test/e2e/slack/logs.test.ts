/** `/harbor logs` without --follow: the last lines, escaped, in one private answer. */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { type BotHarness, startBotHarness } from './bot-harness.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

it('shows the last n lines of a vessel, escaped for mrkdwn', async () => {
  h.sim.emitLogLines('dev', 'lobby-1', ['first', 'player <alice> joined & ready', 'last line']);
  await h.slash('logs dev lobby-1 --lines 2');
  const answer = h.ephemeralTexts().at(-1) ?? '';
  expect(answer).toMatch(/Last 2 log lines of lobby-1/);
  const blocks = JSON.stringify(h.slack.ephemerals().at(-1)?.blocks);
  expect(blocks).toContain('player &lt;alice&gt; joined &amp; ready');
  expect(blocks).toContain('last line');
  expect(blocks).not.toContain('first');
});

it('names a vessel that does not exist', async () => {
  await h.slash('logs dev no-such-vessel');
  expect(h.ephemeralTexts().at(-1)).toBe(
    'No vessel `no-such-vessel` in environment `dev`. Vessels in dev: `duel-1`, `lobby-1`, `lobby-2`.',
  );
});

it('shows only the last n lines when the API ignores tailLines and sends the whole log (issue 12.8)', async () => {
  await h.stop();
  h = await startBotHarness({ logReplay: true });
  h.sim.emitLogLines('dev', 'lobby-1', ['older', 'second to last', 'last line']);
  await h.slash('logs dev lobby-1 --lines 2');
  // The simulator sent everything it had: the bot kept the last two.
  expect(h.sim.requests.find((r) => r.path.endsWith('/vessels/lobby-1/logs'))?.query.tailLines).toBe('2');
  expect(h.ephemeralTexts().at(-1)).toMatch(/Last 2 log lines of lobby-1/);
  const blocks = JSON.stringify(h.slack.ephemerals().at(-1)?.blocks);
  expect(blocks).toContain('second to last');
  expect(blocks).toContain('last line');
  expect(blocks).not.toContain('older');
});
