/**
 * The live tails' message budget on /metrics: slots granted, tails waiting
 * and methods paused by a 429, read from the running bot's budgets over HTTP.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { startTailBot, type TailBot } from '../../slack/tails/e2e-bot.js';

let h: TailBot;
beforeEach(async () => {
  h = await startTailBot();
});
afterEach(async () => {
  await h.stop();
});

async function metrics(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${h.running.port}/metrics`);
  return res.text();
}

function value(text: string, name: string, method: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`method="${method}"`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

it('exports granted, waiting and paused for each method of a workspace budget', async () => {
  expect(await metrics()).toContain('# TYPE harbor_tail_budget_granted_total counter');
  await h.slash('logs dev lobby-1 --follow');
  await h.settle();
  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');
  h.sim.emitLogLines('dev', 'lobby-1', ['match 7 started']);
  const [record] = await h.tails();
  const tail = () => h.message(record?.messageTs ?? '');
  await h.pumpUntil(() => JSON.stringify(tail().blocks).includes('match 7 started'), 'the line');

  const text = await metrics();
  // Two posts: the "Tailing lobby-1" thread parent and the tail message in it.
  expect(value(text, 'harbor_tail_budget_granted_total', 'chat.postMessage')).toBe(2);
  expect(value(text, 'harbor_tail_budget_granted_total', 'chat.update')).toBeGreaterThanOrEqual(1);
  expect(value(text, 'harbor_tail_budget_waiting', 'chat.update')).toBe(0);
  expect(value(text, 'harbor_tail_budget_paused', 'chat.update')).toBe(0);

  // A 429 pauses the method for every tail of the workspace; the gauges say so and for how long.
  h.slack.forceRateLimit('chat.update', { count: 1, retryAfterSeconds: 30 });
  h.sim.emitLogLines('dev', 'lobby-1', ['match 7 ended']);
  await h.pumpUntil(
    async () => value(await metrics(), 'harbor_tail_budget_paused', 'chat.update') === 1,
    'the pause on /metrics',
  );
  const paused = await metrics();
  const left = value(paused, 'harbor_tail_budget_paused_seconds', 'chat.update') ?? 0;
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThanOrEqual(30);
  expect(value(paused, 'harbor_tail_budget_paused', 'chat.postMessage')).toBe(0);
});
