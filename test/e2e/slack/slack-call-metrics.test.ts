/**
 * harbor_slack_calls_total counts every Slack Web API call the bot makes, by
 * method and outcome, as the stand-in saw them; harbor_build_info names the
 * build. Real requests into the real bot, metrics read over HTTP.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { get } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Every sample of `name` as `labels -> value`. */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match?.[1] === name) out.set(match[2] ?? '', Number(match[3]));
  }
  return out;
}

/** Calls counted per method with `outcome`. */
function countedBy(text: string, outcome: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [labels, value] of samples(text, 'harbor_slack_calls_total')) {
    const method = /method="([^"]+)"/.exec(labels)?.[1] ?? '';
    if (labels.includes(`outcome="${outcome}"`)) out.set(method, (out.get(method) ?? 0) + value);
  }
  return out;
}

it('counts each Web API call by method, matching the calls Slack answered', async () => {
  await h.slash('region scheduling dev eu-central baremetal Distributed');
  await h.slash('promote game-server 1.2.0 dev prod');
  await h.slash('help');
  const text = (await get(h, '/metrics')).text;

  const answered = new Map<string, number>();
  // Bolt's respond() posts to response URLs through the same WebClient: counted as `response_url`.
  for (const call of h.slack.calls) {
    answered.set(call.method, (answered.get(call.method) ?? 0) + 1);
  }
  expect(answered.size).toBeGreaterThan(0);
  expect(Object.fromEntries(countedBy(text, 'ok'))).toEqual(Object.fromEntries(answered));
  // The start-up check is among them.
  expect(answered.get('auth.test')).toBeGreaterThanOrEqual(1);
});

it("counts Slack's refusals by error code, 429s as rate_limited and outages by HTTP status", async () => {
  h.slack.refuseNext('chat.postMessage', 'channel_not_found');
  await h.slash('region scheduling dev eu-central baremetal Distributed');
  h.slack.forceOutage('chat.postMessage', 1);
  await h.slash('region scheduling dev eu-central baremetal Distributed');
  h.slack.forceRateLimit('chat.postMessage', { count: 1, retryAfterSeconds: 0 });
  await h.slash('region scheduling dev eu-central baremetal Distributed');
  const text = (await get(h, '/metrics')).text;
  expect(countedBy(text, 'channel_not_found').get('chat.postMessage')).toBe(1);
  expect(countedBy(text, 'http_503').get('chat.postMessage')).toBe(1);
  expect(countedBy(text, 'rate_limited').get('chat.postMessage')).toBe(1);
});

it('exports harbor_build_info with the package version, the commit and the Node version', async () => {
  const text = (await get(h, '/metrics')).text;
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  const info = [...samples(text, 'harbor_build_info')];
  expect(info).toEqual([[`version="${version}",commit="unknown",node="${process.versions.node}"`, 1]]);
});
