import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ApiError, createGameFabricClient } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { BASE, recordingClock, status, useNock, vessel } from './helpers.js';

const USER = 'bot@example.com';
const PASSWORD = 'hunter2-very-secret';
const LIST = '/api/formation/v1/environments/dev/vessels';
const HOUR_S = 3600;

useNock();

const passwordForm = {
  client_id: 'api',
  grant_type: 'password',
  scope: 'openid email profile offline_access',
  username: USER,
  password: PASSWORD,
};

function serviceAccountClient(
  clock = new ManualClock(),
  extra: { logger?: ReturnType<typeof createMemoryLogger> } = {},
) {
  return createGameFabricClient({
    baseUrl: BASE,
    auth: { username: USER, password: PASSWORD },
    clock,
    random: () => 1,
    renewBeforeMs: 5 * 60_000,
    ...extra,
  });
}

function loginAnswer(token: string, refresh?: string) {
  return {
    access_token: token,
    token_type: 'Bearer',
    expires_in: HOUR_S,
    ...(refresh ? { refresh_token: refresh } : {}),
  };
}

/** An API scope that only matches requests carrying `token`. */
function withToken(token: string) {
  return nock(BASE, { reqheaders: { authorization: `Bearer ${token}` } });
}

describe('service-account login', () => {
  it('logs in with a form-encoded password grant, then sends the token', async () => {
    const login = nock(BASE, { reqheaders: { 'content-type': 'application/x-www-form-urlencoded' } })
      .post('/auth/token', passwordForm)
      .reply(200, loginAnswer('access-1'));
    const call = withToken('access-1').get(LIST).reply(200, { items: [] });
    await serviceAccountClient().listVessels('dev');
    login.done();
    call.done();
  });

  it('uses the given client id', async () => {
    const login = nock(BASE)
      .post('/auth/token', { ...passwordForm, client_id: 'custom' })
      .reply(200, loginAnswer('a'));
    withToken('a').get(LIST).reply(200, { items: [] });
    await createGameFabricClient({
      baseUrl: BASE,
      auth: { username: USER, password: PASSWORD, clientId: 'custom' },
      clock: new ManualClock(),
    }).listVessels('dev');
    login.done();
  });

  it('shares one login between concurrent callers', async () => {
    const login = nock(BASE).post('/auth/token').once().reply(200, loginAnswer('access-1'));
    withToken('access-1').get(LIST).times(5).reply(200, { items: [] });
    const client = serviceAccountClient();
    await Promise.all(Array.from({ length: 5 }, () => client.listVessels('dev')));
    login.done();
    expect(nock.isDone()).toBe(true);
  });

  it('reuses the token until the renewal window, then renews with the refresh token', async () => {
    const clock = new ManualClock();
    nock(BASE).post('/auth/token', passwordForm).reply(200, loginAnswer('access-1', 'refresh-1'));
    withToken('access-1').get(LIST).times(2).reply(200, { items: [] });
    const client = serviceAccountClient(clock);
    await client.listVessels('dev');
    await clock.advance((HOUR_S - 5 * 60 - 1) * 1000);
    await client.listVessels('dev');
    expect(nock.isDone()).toBe(true);

    await clock.advance(2000); // now inside the last five minutes
    const refresh = nock(BASE)
      .post('/auth/token', { client_id: 'api', grant_type: 'refresh_token', refresh_token: 'refresh-1' })
      .reply(200, loginAnswer('access-2', 'refresh-2'));
    const renewed = withToken('access-2').get(LIST).reply(200, { items: [] });
    await client.listVessels('dev');
    refresh.done();
    renewed.done();
  });

  it('falls back to the password when the refresh token is refused', async () => {
    const clock = new ManualClock();
    nock(BASE).post('/auth/token', passwordForm).reply(200, loginAnswer('access-1', 'refresh-1'));
    withToken('access-1').get(LIST).reply(200, { items: [] });
    const client = serviceAccountClient(clock);
    await client.listVessels('dev');

    await clock.advance(HOUR_S * 1000 + 1); // expired
    nock(BASE)
      .post('/auth/token', { client_id: 'api', grant_type: 'refresh_token', refresh_token: 'refresh-1' })
      .reply(400, {
        error: 'invalid_grant',
        error_description: 'Token is not active',
      });
    const relogin = nock(BASE).post('/auth/token', passwordForm).reply(200, loginAnswer('access-2'));
    withToken('access-2').get(LIST).reply(200, { items: [] });
    await client.listVessels('dev');
    relogin.done();
    expect(nock.isDone()).toBe(true);
  });

  it('keeps using a still-valid token when an early renewal fails', async () => {
    const clock = new ManualClock();
    nock(BASE).post('/auth/token').reply(200, loginAnswer('access-1'));
    withToken('access-1').get(LIST).times(2).reply(200, { items: [] });
    const client = serviceAccountClient(clock);
    await client.listVessels('dev');
    await clock.advance((HOUR_S - 60) * 1000);
    nock(BASE).post('/auth/token').reply(400, { error: 'invalid_request' });
    await expect(client.listVessels('dev')).resolves.toEqual([]);
    expect(nock.isDone()).toBe(true);
  });

  it('renews no earlier than half a short-lived token’s lifetime', async () => {
    const clock = new ManualClock();
    nock(BASE).post('/auth/token').reply(200, { access_token: 'short-1', expires_in: 60 });
    withToken('short-1').get(LIST).times(2).reply(200, { items: [] });
    const client = serviceAccountClient(clock);
    await client.listVessels('dev');
    await clock.advance(29_000);
    await client.listVessels('dev');
    expect(nock.isDone()).toBe(true);

    await clock.advance(2_000);
    nock(BASE).post('/auth/token').reply(200, { access_token: 'short-2', expires_in: 60 });
    withToken('short-2').get(LIST).reply(200, { items: [] });
    await client.listVessels('dev');
    expect(nock.isDone()).toBe(true);
  });

  it('logs in again once after a 401 and repeats the request', async () => {
    nock(BASE).post('/auth/token').reply(200, loginAnswer('access-1', 'refresh-1'));
    withToken('access-1')
      .get(LIST)
      .reply(401, status(401, 'Unauthorized', 'token revoked'));
    // A refused token ends the session: the re-login uses the password, not the old refresh token.
    const relogin = nock(BASE).post('/auth/token', passwordForm).reply(200, loginAnswer('access-2'));
    withToken('access-2')
      .get(LIST)
      .reply(200, { items: [vessel('x')] });
    const client = serviceAccountClient();
    await expect(client.listVessels('dev')).resolves.toHaveLength(1);
    relogin.done();
  });

  it('re-logs in only once per request: a second 401 is returned', async () => {
    nock(BASE).post('/auth/token').times(2).reply(200, loginAnswer('access-1'));
    nock(BASE)
      .get(LIST)
      .times(2)
      .reply(401, status(401, 'Unauthorized', 'no'));
    const client = serviceAccountClient();
    await expect(client.listVessels('dev')).rejects.toMatchObject({ status: 401, reason: 'Unauthorized' });
    expect(nock.isDone()).toBe(true);
  });

  it('re-logs in once for concurrent requests refused with the same token', async () => {
    nock(BASE).post('/auth/token').reply(200, loginAnswer('access-1'));
    withToken('access-1').get(LIST).times(3).reply(401);
    const relogin = nock(BASE).post('/auth/token').once().reply(200, loginAnswer('access-2'));
    withToken('access-2').get(LIST).times(3).reply(200, { items: [] });
    const client = serviceAccountClient();
    await Promise.all([client.listVessels('dev'), client.listVessels('dev'), client.listVessels('dev')]);
    relogin.done();
    expect(nock.isDone()).toBe(true);
  });

  it('retries the token endpoint on a 503 like any idempotent request', async () => {
    const clock = recordingClock();
    nock(BASE).post('/auth/token').reply(503);
    nock(BASE).post('/auth/token').reply(200, loginAnswer('access-1'));
    withToken('access-1').get(LIST).reply(200, { items: [] });
    await createGameFabricClient({
      baseUrl: BASE,
      auth: { username: USER, password: PASSWORD },
      clock,
      random: () => 1,
    }).listVessels('dev');
    expect(clock.sleeps).toEqual([200]);
  });
});

describe('login failures', () => {
  it('report the token endpoint’s status and never the password, in the error or the logs', async () => {
    nock(BASE)
      .post('/auth/token')
      .reply(401, {
        error: 'invalid_grant',
        error_description: `Invalid user credentials for ${USER} / ${PASSWORD}`,
      });
    const logger = createMemoryLogger();
    const client = serviceAccountClient(new ManualClock(), { logger });
    const error = await client.listVessels('dev').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, request: { method: 'POST', path: '/auth/token' } });
    const apiError = error as ApiError;
    expect(apiError.message).toContain('invalid_grant');
    expect(apiError.message).not.toContain(PASSWORD);
    expect(apiError.body).not.toContain(PASSWORD);
    expect(logger.lines.join('\n')).not.toContain(PASSWORD);
  });

  it('redact the form-encoded spelling of the password too', async () => {
    const password = 'p@ss word&more';
    nock(BASE)
      .post('/auth/token')
      .reply(400, (_uri, body) => `bad form: ${String(body)}`);
    const client = createGameFabricClient({
      baseUrl: BASE,
      auth: { username: USER, password },
      clock: new ManualClock(),
    });
    const error = (await client.listVessels('dev').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(400);
    expect(error.body).not.toContain(new URLSearchParams({ p: password }).toString().slice(2));
    expect(error.body).toContain('[REDACTED]');
  });

  it('treat a malformed answer as InvalidResponse without keeping its body (it may hold a token)', async () => {
    nock(BASE).post('/auth/token').reply(200, { access_token: 'leaky-token-123456', expires_in: 'soon' });
    const error = (await serviceAccountClient()
      .listVessels('dev')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 200, reason: 'InvalidResponse' });
    expect(error.body).toBeUndefined();
    expect(error.message).not.toContain('leaky-token');
  });

  it('accept expires_in sent as a string', async () => {
    const clock = new ManualClock();
    nock(BASE).post('/auth/token').reply(200, { access_token: 'access-1', expires_in: '3600' });
    withToken('access-1').get(LIST).times(2).reply(200, { items: [] });
    const client = serviceAccountClient(clock);
    await client.listVessels('dev');
    await clock.advance(3000 * 1000);
    await client.listVessels('dev');
    expect(nock.isDone()).toBe(true);
  });

  it('treat an answer without access_token as InvalidResponse', async () => {
    nock(BASE).post('/auth/token').reply(200, { token_type: 'Bearer' });
    await expect(serviceAccountClient().listVessels('dev')).rejects.toMatchObject({
      status: 200,
      reason: 'InvalidResponse',
    });
  });

  it('redact issued tokens from later errors and logs', async () => {
    nock(BASE).post('/auth/token').reply(200, loginAnswer('issued-token-abcdef', 'issued-refresh-ghijkl'));
    withToken('issued-token-abcdef').get(LIST).reply(500, 'debug: issued-token-abcdef issued-refresh-ghijkl');
    const logger = createMemoryLogger();
    const error = (await serviceAccountClient(new ManualClock(), { logger })
      .listVessels('dev')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(`GET ${LIST}: 500: debug: [REDACTED] [REDACTED]`);
    expect(logger.lines.join('\n')).not.toMatch(/issued-(token|refresh)/);
  });
});

describe('static token', () => {
  it('does not retry a 401: there is nothing to renew', async () => {
    const scope = nock(BASE)
      .get(LIST)
      .once()
      .reply(401, status(401, 'Unauthorized', 'bad token'));
    const client = createGameFabricClient({
      baseUrl: BASE,
      auth: { token: 'static-abcdef' },
      clock: recordingClock(),
    });
    await expect(client.listVessels('dev')).rejects.toMatchObject({ status: 401 });
    scope.done();
  });
});
