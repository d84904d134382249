/**
 * Health and metrics on the bot's own HTTP port, as a load balancer and
 * Prometheus would read them, with the counters moved by real requests.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { sample } from '../../support/metrics-text.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { get } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

describe('/healthz', () => {
  it('answers 200 with JSON saying Slack is connected and the store answers', async () => {
    const res = await get(h, '/healthz');
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('application/json');
    expect(JSON.parse(res.text)).toEqual({ ready: true, slack: 'connected', store: 'ok' });
  });

  it('does not count as Slack traffic: no Slack or hosting API call is made', async () => {
    const before = h.slack.calls.length;
    await get(h, '/healthz');
    expect(h.slack.calls.length).toBe(before);
    expect(h.sim.requests).toHaveLength(0);
  });
});

describe('/metrics', () => {
  it('serves Prometheus text with every harbor metric declared', async () => {
    const res = await get(h, '/metrics');
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('text/plain');
    for (const name of [
      'harbor_commands_total',
      'harbor_interactions_total',
      'harbor_ack_seconds',
      'harbor_handle_seconds',
      'harbor_api_calls_total',
      'harbor_api_seconds',
      'harbor_errors_total',
    ]) {
      expect(res.text).toContain(`# TYPE ${name} `);
    }
  });

  it('counts commands, acks, clicks and hosting API calls made by real requests', async () => {
    await h.slash('vessels dev');
    await h.slash('vesels dev');
    await h.slash('region scheduling dev eu-central baremetal Distributed');
    await h.click(h.lastMessage(), CHANGE_ACTIONS.confirm);
    const text = (await get(h, '/metrics')).text;

    expect(sample(text, 'harbor_commands_total', { command: 'vessels', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'harbor_commands_total', { command: 'usage', outcome: 'usage' })).toBe(1);
    expect(sample(text, 'harbor_commands_total', { command: 'region.scheduling', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'harbor_ack_seconds_count', { kind: 'command' })).toBe(3);
    expect(sample(text, 'harbor_ack_seconds_count', { kind: 'click' })).toBe(1);
    expect(sample(text, 'harbor_interactions_total', { action: 'change.confirm', outcome: 'applied' })).toBe(
      1,
    );

    const apiCalls = text
      .split('\n')
      .filter((l) => l.startsWith('harbor_api_calls_total{'))
      .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
    expect(apiCalls).toBe(h.sim.requests.length);
    expect(sample(text, 'harbor_api_calls_total', { method: 'PATCH', status: '200' })).toBe(1);
  });

  it('counts a failing hosting API call by its status, and the error it caused', async () => {
    h.sim.setFaults([
      { method: 'GET', path: '/api/formation/v1/environments/dev/formations/*', status: 500 },
    ]);
    await h.slash('formation show dev lobby');
    const text = (await get(h, '/metrics')).text;
    expect(sample(text, 'harbor_api_calls_total', { method: 'GET', status: '500' })).toBe(1);
    expect(sample(text, 'harbor_commands_total', { command: 'formation.show', outcome: 'error' })).toBe(1);
    expect(sample(text, 'harbor_errors_total', { where: 'command formation.show' })).toBe(1);
  });
});
