/**
 * Every Slack call is counted by outcome where it leaves the process, and the
 * SDK still reads the whole answer. Over a real loopback server with the
 * bot's own HTTP client (node-fetch): an answer larger than node-fetch's
 * 16 KB stream buffer is the case a clone-and-read-one-side approach stalls
 * on, so it is read here through a WebClient, as the bot reads it.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import { Counter, Registry } from 'prom-client';
import { countedFetch } from '../../../src/slack/runtime/counted-fetch.js';

let server: Server;
let apiUrl: string;
/** What the server answers next: status, body, headers. */
let answer: { status: number; body: string; headers?: Record<string, string> };

beforeEach(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function counted() {
  const calls = new Counter({
    name: 'slack_calls_test',
    help: 'test',
    labelNames: ['method', 'outcome'] as const,
    registers: [new Registry()],
  });
  const client = new WebClient('xoxb-test', {
    slackApiUrl: apiUrl,
    fetch: countedFetch(calls),
    retryConfig: { retries: 0 },
  });
  const outcome = async () =>
    (await calls.get()).values.map((v) => `${v.labels.method} ${v.labels.outcome} ${v.value}`);
  return { client, outcome };
}

it('hands the SDK the whole of an answer larger than the HTTP stream buffer, and counts it ok', async () => {
  const messages = Array.from({ length: 400 }, (_, i) => ({ ts: `${i}.0001`, text: 'x'.repeat(200) }));
  answer = { status: 200, body: JSON.stringify({ ok: true, messages }) };
  expect(answer.body.length).toBeGreaterThan(64 * 1024);
  const { client, outcome } = counted();
  const result = await client.conversations.history({ channel: 'C1' });
  expect(result.messages).toHaveLength(400);
  expect(await outcome()).toEqual(['conversations.history ok 1']);
});

it("counts Slack's error code from a 200 answer, and the SDK still throws it", async () => {
  answer = { status: 200, body: JSON.stringify({ ok: false, error: 'channel_not_found' }) };
  const { client, outcome } = counted();
  await expect(client.chat.postMessage({ channel: 'C404', text: 'hi' })).rejects.toThrow('channel_not_found');
  expect(await outcome()).toEqual(['chat.postMessage channel_not_found 1']);
});

it('counts a rate limit and an HTTP error by status, a body that is not JSON as invalid', async () => {
  const { client, outcome } = counted();
  answer = { status: 429, body: '{}', headers: { 'retry-after': 'x' } };
  await expect(client.chat.postMessage({ channel: 'C1', text: 'hi' })).rejects.toThrow();
  answer = { status: 502, body: 'bad gateway' };
  await expect(client.chat.update({ channel: 'C1', ts: '1.1', text: 'hi' })).rejects.toThrow();
  answer = { status: 200, body: '<html>' };
  await expect(client.auth.test()).rejects.toThrow();
  expect((await outcome()).sort()).toEqual([
    'auth.test invalid_response 1',
    'chat.postMessage rate_limited 1',
    'chat.update http_502 1',
  ]);
});

it('keeps the status, headers and URL of what it answers', async () => {
  answer = { status: 200, body: '{"ok":true}', headers: { 'x-oauth-scopes': 'chat:write,commands' } };
  const { client } = counted();
  const result = await client.auth.test();
  expect(result.response_metadata?.scopes).toEqual(['chat:write', 'commands']);
});
