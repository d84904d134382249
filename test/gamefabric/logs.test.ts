import { PassThrough } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import fetch from 'node-fetch';
import { ApiError } from '../../src/gamefabric/client.js';
import type { FetchLike } from '../../src/gamefabric/request.js';
import { api, BASE, TOKEN, testClient, useNock } from './helpers.js';

const LOGS = '/api/formation/v1/environments/dev/vessels/v1/logs';

useNock();

/** node-fetch, remembering each response body so a test can check it was closed. */
function trackingFetch(): { fetch: FetchLike; bodies: PassThrough[] } {
  const bodies: PassThrough[] = [];
  const tracked = (async (...args: Parameters<FetchLike>) => {
    const res = await fetch(...args);
    if (res.body) bodies.push(res.body as unknown as PassThrough);
    return res;
  }) as FetchLike;
  return { fetch: tracked, bodies };
}

/** A response body the test writes to while the client reads it. */
function streamReply(): PassThrough {
  return new PassThrough();
}

/**
 * Replies on the follow endpoint declare chunked framing, as a real server
 * does: under `Connection: keep-alive` an unframed body would only end when the
 * socket closes, which nock's mock socket never does.
 */
const CHUNKED = { 'Transfer-Encoding': 'chunked' };

describe('vesselLogs', () => {
  it('returns the recent lines, passing tailLines and container', async () => {
    const scope = nock(BASE, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .get(LOGS)
      .query({ tailLines: '2', container: 'sidecar' })
      .reply(200, 'line one\r\nline two\n', { 'Content-Type': 'text/plain' });
    const { client } = testClient();
    await expect(client.vesselLogs('dev', 'v1', { tailLines: 2, container: 'sidecar' })).resolves.toEqual([
      'line one',
      'line two',
    ]);
    scope.done();
  });

  it('sends no query when no option is given and keeps a partial last line', async () => {
    api()
      .get(LOGS)
      .query((q) => Object.keys(q).length === 0)
      .reply(200, 'a\n\nb');
    const { client } = testClient();
    await expect(client.vesselLogs('dev', 'v1')).resolves.toEqual(['a', '', 'b']);
  });
});

describe('vesselLogs against an API that ignores tailLines (issue 12.8)', () => {
  it('keeps only the last tailLines of a whole log, read in chunks', async () => {
    const whole = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
    const body = streamReply();
    const scope = api()
      .get(LOGS)
      .query({ tailLines: '3' })
      .reply(200, () => body, { 'Content-Type': 'text/plain' });
    const { client } = testClient();
    const pending = client.vesselLogs('dev', 'v1', { tailLines: 3 });
    // Many chunks, a line split across two of them.
    for (let i = 0; i < whole.length; i += 100) body.write(`${whole.slice(i, i + 100).join('\n')}\n`);
    body.write('part');
    body.end('ial last');
    await expect(pending).resolves.toEqual(['line 4998', 'line 4999', 'partial last']);
    scope.done();
  });

  it('returns the whole answer when no tailLines is given, and none for tailLines=0', async () => {
    api().get(LOGS).reply(200, 'a\nb\n');
    api().get(LOGS).query({ tailLines: '0' }).reply(200, 'a\nb\n');
    const { client } = testClient();
    await expect(client.vesselLogs('dev', 'v1')).resolves.toEqual(['a', 'b']);
    await expect(client.vesselLogs('dev', 'v1', { tailLines: 0 })).resolves.toEqual([]);
  });
});

describe('streamVesselLogs (follow=true)', () => {
  it('asks with follow=true and Connection: keep-alive, and yields lines as chunks arrive', async () => {
    const body = streamReply();
    const scope = nock(BASE, { reqheaders: { connection: 'keep-alive', authorization: `Bearer ${TOKEN}` } })
      .get(LOGS)
      .query({ follow: 'true', container: 'game' })
      .reply(200, () => body, CHUNKED);
    const { client } = testClient();
    const lines = client.streamVesselLogs('dev', 'v1', { container: 'game' })[Symbol.asyncIterator]();
    body.write('first\r');
    body.write('\nsec');
    await expect(lines.next()).resolves.toEqual({ value: 'first', done: false });
    body.write('ond\n');
    await expect(lines.next()).resolves.toEqual({ value: 'second', done: false });
    body.end('last, unterminated');
    await expect(lines.next()).resolves.toEqual({ value: 'last, unterminated', done: false });
    await expect(lines.next()).resolves.toEqual({ value: undefined, done: true });
    scope.done();
  });

  it('ends cleanly when the signal aborts, and closes the response body', async () => {
    const body = streamReply();
    api()
      .get(LOGS)
      .query({ follow: 'true' })
      .reply(200, () => body, CHUNKED);
    const tracking = trackingFetch();
    const { client } = testClient({ fetch: tracking.fetch });
    const controller = new AbortController();
    const seen: string[] = [];
    // One chunk with several lines: nothing after the abort may be handed out, even if already read.
    body.write('one\ntwo\nthree\nfour\n');
    for await (const line of client.streamVesselLogs('dev', 'v1', { signal: controller.signal })) {
      seen.push(line);
      if (line === 'two') controller.abort();
    }
    expect(seen).toEqual(['one', 'two']);
    expect(tracking.bodies[0]?.destroyed).toBe(true);
  });

  it('ends cleanly when aborted while waiting for the next line', async () => {
    const body = streamReply();
    api()
      .get(LOGS)
      .query({ follow: 'true' })
      .reply(200, () => body, CHUNKED);
    const controller = new AbortController();
    const { client } = testClient();
    const lines = client.streamVesselLogs('dev', 'v1', { signal: controller.signal })[Symbol.asyncIterator]();
    body.write('one\n');
    await expect(lines.next()).resolves.toEqual({ value: 'one', done: false });
    const waiting = lines.next();
    controller.abort();
    await expect(waiting).resolves.toEqual({ value: undefined, done: true });
  });

  it('yields nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { client } = testClient();
    const seen: string[] = [];
    for await (const line of client.streamVesselLogs('dev', 'v1', { signal: controller.signal }))
      seen.push(line);
    expect(seen).toEqual([]);
  });

  it('closes the response body when the consumer breaks out of the loop', async () => {
    const body = streamReply();
    api()
      .get(LOGS)
      .query({ follow: 'true' })
      .reply(200, () => body, CHUNKED);
    const tracking = trackingFetch();
    const { client } = testClient({ fetch: tracking.fetch });
    body.write('one\ntwo\n');
    for await (const line of client.streamVesselLogs('dev', 'v1')) {
      if (line === 'one') break;
    }
    expect(tracking.bodies).toHaveLength(1);
    expect(tracking.bodies[0]?.destroyed).toBe(true);
  });

  it('retries the initial connect on a 503', async () => {
    api().get(LOGS).query({ follow: 'true' }).reply(503, '', CHUNKED);
    api().get(LOGS).query({ follow: 'true' }).reply(200, 'hello\n', CHUNKED);
    const { client, clock } = testClient();
    const seen: string[] = [];
    for await (const line of client.streamVesselLogs('dev', 'v1')) seen.push(line);
    expect(seen).toEqual(['hello']);
    expect(clock.sleeps).toEqual([200]);
  });

  it('reports a stream that breaks mid-way as an ApiError with status 0, without reconnecting', async () => {
    const body = streamReply();
    api()
      .get(LOGS)
      .query({ follow: 'true' })
      .reply(200, () => body, CHUNKED);
    const { client, clock } = testClient();
    const lines = client.streamVesselLogs('dev', 'v1')[Symbol.asyncIterator]();
    body.write('one\n');
    await expect(lines.next()).resolves.toEqual({ value: 'one', done: false });
    body.destroy(new Error('connection reset'));
    const error = await lines.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 0,
      reason: 'NetworkError',
      request: { path: `${LOGS}?follow=true` },
    });
    expect(clock.sleeps).toEqual([]);
  });

  it('passes a refused connect on as an ApiError', async () => {
    api()
      .get(LOGS)
      .query({ follow: 'true' })
      .reply(404, { kind: 'Status', reason: 'NotFound', message: 'no vessel' }, CHUNKED);
    const { client } = testClient();
    const iterate = async () => {
      for await (const _ of client.streamVesselLogs('dev', 'v1')) {
        // nothing arrives
      }
    };
    await expect(iterate()).rejects.toMatchObject({ status: 404, reason: 'NotFound' });
  });
});
