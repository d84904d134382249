import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ApiError, GameFabricError, isConflict, isNotFound } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { api, BASE, status, TOKEN, testClient, useNock, vessel } from './helpers.js';

const VESSEL_PATH = '/api/formation/v1/environments/dev/vessels/x';

useNock();

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('request funnel: URLs and headers', () => {
  it('sends Accept and Authorization, and encodes each path parameter as one segment', async () => {
    const scope = nock(BASE, {
      reqheaders: { accept: 'application/json', authorization: `Bearer ${TOKEN}` },
      badheaders: ['content-type'],
    })
      .get('/api/formation/v1/environments/my%20env/vessels/a%2Fb%3Fc')
      .reply(200, vessel('a/b?c'));
    const { client } = testClient();
    await expect(client.getVessel('my env', 'a/b?c')).resolves.toMatchObject({ metadata: { name: 'a/b?c' } });
    scope.done();
  });

  it('refuses dot segments, which URL parsing would resolve to another resource', async () => {
    const { client } = testClient();
    await expect(client.getVessel('dev', '..')).rejects.toThrow(GameFabricError);
    await expect(client.getVessel('dev', '')).rejects.toThrow('invalid name in request path');
  });

  it('joins a base URL with a path prefix and trailing slash', async () => {
    const scope = nock('http://proxy.test').get(`/gf${VESSEL_PATH}`).reply(200, vessel('x'));
    const { client } = testClient({ baseUrl: 'http://proxy.test/gf/' });
    await client.getVessel('dev', 'x');
    scope.done();
  });
});

describe('request funnel: error shapes', () => {
  it('reads a Kubernetes Status body into reason and message', async () => {
    api()
      .get(VESSEL_PATH)
      .reply(404, status(404, 'NotFound', 'vessel "x" not found'));
    const { client } = testClient();
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error).toMatchObject({
      status: 404,
      reason: 'NotFound',
      message: `GET ${VESSEL_PATH}: 404 NotFound: vessel "x" not found`,
      request: { method: 'GET', path: VESSEL_PATH },
    });
    expect(JSON.parse(error.body ?? '')).toMatchObject({ kind: 'Status', code: 404 });
    expect(isNotFound(error)).toBe(true);
    expect(isConflict(error)).toBe(false);
  });

  it('reads the message of other JSON bodies, including OAuth-style ones', async () => {
    api().get(VESSEL_PATH).reply(403, { message: 'missing permission GET on VESSELS' });
    api().get(VESSEL_PATH).reply(400, { error: 'invalid_request', error_description: 'bad field' });
    const { client } = testClient();
    const first = await failure(client.getVessel('dev', 'x'));
    expect(first.message).toBe(`GET ${VESSEL_PATH}: 403: missing permission GET on VESSELS`);
    expect(first.reason).toBeUndefined();
    const second = await failure(client.getVessel('dev', 'x'));
    expect(second.message).toBe(`GET ${VESSEL_PATH}: 400: invalid_request: bad field`);
  });

  it('uses the first line of a plain-text body', async () => {
    api()
      .get(VESSEL_PATH)
      .reply(500, 'upstream exploded\nstack trace line', { 'Content-Type': 'text/plain' });
    const { client } = testClient();
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error.message).toBe(`GET ${VESSEL_PATH}: 500: upstream exploded`);
    expect(error.apiMessage).toBe('upstream exploded');
    expect(error.body).toBe('upstream exploded\nstack trace line');
  });

  it('falls back to the status text for an empty body', async () => {
    api().get(VESSEL_PATH).reply(500, '');
    const { client } = testClient();
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error.status).toBe(500);
    expect(error.message).toBe(`GET ${VESSEL_PATH}: 500: Internal Server Error`);
    expect(error.apiMessage).toBe('Internal Server Error');
    expect(error.body).toBeUndefined();
  });

  it('treats malformed JSON in an error body as text, never as a parse error', async () => {
    api().get(VESSEL_PATH).reply(409, '{"kind":"Status", "reason":', { 'Content-Type': 'application/json' });
    const { client } = testClient();
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error.status).toBe(409);
    expect(error.message).toBe(`GET ${VESSEL_PATH}: 409: {"kind":"Status", "reason":`);
  });

  it('reports malformed JSON in a success body as InvalidResponse with the HTTP status', async () => {
    api().get(VESSEL_PATH).reply(200, '{"metadata":', { 'Content-Type': 'application/json' });
    const { client } = testClient();
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error).toMatchObject({ status: 200, reason: 'InvalidResponse' });
    expect(error.message).toBe(
      `GET ${VESSEL_PATH}: 200 InvalidResponse: body is not JSON, expected a Vessel`,
    );
    expect(error.apiMessage).toBe('body is not JSON, expected a Vessel');
  });

  it('reports a success body that fails the schema as InvalidResponse naming the field', async () => {
    api()
      .get(VESSEL_PATH)
      .reply(200, { metadata: { name: 'x' }, spec: { template: { spec: { containers: [] } } } });
    const { client } = testClient();
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error).toMatchObject({ status: 200, reason: 'InvalidResponse' });
    expect(error.message).toContain('response is not a valid Vessel: spec.region:');
  });

  it('cuts a huge error body to 2 KB', async () => {
    api().get(VESSEL_PATH).reply(500, 'x'.repeat(10_000));
    const { client } = testClient();
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error.body?.length).toBeLessThanOrEqual(2049);
    expect(error.message.length).toBeLessThan(400);
  });

  it('keeps the query string in the request path of an error', async () => {
    api()
      .get('/api/container/v1/images/scopes/dev')
      .query({ fieldSelector: 'spec.image=game,spec.tag=1.0' })
      .reply(403, status(403, 'Forbidden', 'missing permission GET on IMAGES'));
    const { client } = testClient();
    const error = await failure(client.listImages('dev', { image: 'game', tag: '1.0' }));
    expect(error.request).toEqual({
      method: 'GET',
      path: '/api/container/v1/images/scopes/dev?fieldSelector=spec.image%3Dgame%2Cspec.tag%3D1.0',
    });
  });
});

describe('request funnel: no response', () => {
  it('turns a connection failure into status 0 NetworkError', async () => {
    api()
      .get(VESSEL_PATH)
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const { client } = testClient({ retry: { maxAttempts: 1 } });
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error).toMatchObject({ status: 0, reason: 'NetworkError' });
    expect(error.message).toMatch(/^GET \/api\S+: network error: .*ECONNREFUSED/);
  });

  it('times out a slow answer with status 0 Timeout', async () => {
    api().get(VESSEL_PATH).delay(2_000).reply(200, vessel('x'));
    const { client } = testClient({ timeoutMs: 30, retry: { maxAttempts: 1 } });
    const error = await failure(client.getVessel('dev', 'x'));
    expect(error).toMatchObject({ status: 0, reason: 'Timeout' });
    expect(error.message).toBe(`GET ${VESSEL_PATH}: timed out after 30 ms`);
    expect(error.apiMessage).toBe('timed out after 30 ms');
  });

  it('retries a timed-out GET and succeeds on the next attempt', async () => {
    // The timeout runs on a clock of the test's, moved once the first attempt reached the API: on a
    // real 30 ms timer, a loaded machine timed out the second attempt too (nock then had no answer).
    const timeouts = new ManualClock(0);
    api()
      .get(VESSEL_PATH)
      .delay(60_000)
      .reply(200, vessel('x'))
      .once('request', () => void timeouts.advance(30));
    api().get(VESSEL_PATH).reply(200, vessel('x'));
    const { client, clock } = testClient({ timeoutMs: 30, timeoutClock: timeouts });
    await expect(client.getVessel('dev', 'x')).resolves.toMatchObject({ metadata: { name: 'x' } });
    expect(clock.sleeps).toEqual([200]);
  });
});

describe('request funnel: redaction and logging', () => {
  it('never lets the token into error message, body, cause or log lines', async () => {
    api()
      .get(VESSEL_PATH)
      .reply(
        401,
        status(401, 'Unauthorized', `token ${TOKEN} is not valid (Authorization: Bearer ${TOKEN})`),
      );
    api().get('/api/formation/v1/environments/dev/vessels').replyWithError(`socket hang up for ${TOKEN}`);
    const logger = createMemoryLogger();
    const { client } = testClient({ logger, retry: { maxAttempts: 1 } });
    const first = await failure(client.getVessel('dev', 'x'));
    const second = await failure(client.listVessels('dev'));
    for (const error of [first, second]) {
      expect(error.message).not.toContain(TOKEN);
      expect(error.body ?? '').not.toContain(TOKEN);
      expect(String((error.cause as Error | undefined)?.message)).not.toContain(TOKEN);
    }
    expect(first.message).toContain('[REDACTED]');
    expect(second.message).toContain('[REDACTED]');
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toContain(TOKEN);
  });

  it('logs method, path, status, ms and attempt of each request, and no headers', async () => {
    api().get(VESSEL_PATH).reply(200, vessel('x'));
    const logger = createMemoryLogger();
    const { client } = testClient({ logger });
    await client.getVessel('dev', 'x');
    expect(logger.lines).toHaveLength(1);
    const line = JSON.parse(logger.lines[0] ?? '{}');
    expect(line).toMatchObject({
      msg: 'gamefabric request',
      method: 'GET',
      path: VESSEL_PATH,
      status: 200,
      attempt: 1,
    });
    expect(typeof line.ms).toBe('number');
    expect(logger.lines[0]).not.toMatch(/authorization|bearer/i);
  });
});
