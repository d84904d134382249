import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DEMO_VIEWER_TOKEN } from '../../src/simulator/index.js';
import {
  call,
  callJson,
  IMAGES,
  img,
  PROMOTIONS,
  type StatusBody,
  startTestSim,
  type TestSim,
  VESSELS,
} from './helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim({ tokenTtlSeconds: 60 });
});
afterEach(() => t.sim.stop());

function tokenRequest(form: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  return fetch(`${t.sim.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new URLSearchParams(form).toString(),
  });
}

/** What /auth/token answers on success. */
interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
}

/** What /auth/token answers on failure (OAuth 2 error response). */
interface TokenError {
  error: string;
  error_description: string;
}

const login = {
  client_id: 'api',
  grant_type: 'password',
  username: 'harbormaster@demo.local',
  password: 'demo-password',
};

describe('bearer tokens', () => {
  it('answers 401 Status without an Authorization header', async () => {
    const res = await call(t.sim, `${IMAGES}/dev`, { token: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(await res.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('answers 401 for an unknown token and for a non-Bearer scheme', async () => {
    const unknown = await callJson<StatusBody>(t.sim, `${IMAGES}/dev`, 401, { token: 'nope' });
    expect(unknown.message).toBe('Unauthorized: invalid token');
    const basic = await call(t.sim, `${IMAGES}/dev`, {
      token: null,
      headers: { authorization: 'Basic eDp5' },
    });
    expect(basic.status).toBe(401);
  });

  it('answers 403 naming the missing permission', async () => {
    t.sim.addServiceAccount({ name: 'ci@demo', tokens: ['ci-token'], permissions: { IMAGES: ['GET'] } });
    await callJson(t.sim, `${IMAGES}/dev`, 200, { token: 'ci-token' });
    const res = await callJson(t.sim, `${PROMOTIONS}/prod`, 403, {
      token: 'ci-token',
      body: {
        apiVersion: 'container/v1',
        kind: 'ImagePromotion',
        metadata: { name: 'p', branch: 'prod' },
        spec: { branch: 'dev', imageName: img('dev', 'game-server', '1.2.0') },
      },
    });
    expect(res).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'service account "ci@demo" lacks POST permission on IMAGEPROMOTIONS',
      details: { resource: 'IMAGEPROMOTIONS', method: 'POST' },
    });
    expect(t.sim.state.listImages('prod')).toHaveLength(1);
  });

  it('counts log reads as GET on VESSELS', async () => {
    t.sim.addServiceAccount({ name: 'logs@demo', tokens: ['logs-token'], permissions: { VESSELS: ['GET'] } });
    t.sim.addServiceAccount({ name: 'none@demo', tokens: ['none-token'], permissions: {} });
    const ok = await call(t.sim, `${VESSELS}/lobby-1/logs`, { token: 'logs-token' });
    expect(ok.status).toBe(200);
    await ok.text();
    const denied = await callJson<StatusBody>(t.sim, `${VESSELS}/lobby-1/logs`, 403, { token: 'none-token' });
    expect(denied.message).toBe('service account "none@demo" lacks GET permission on VESSELS');
  });

  it('gives the demo viewer read access only', async () => {
    await callJson(t.sim, VESSELS, 200, { token: DEMO_VIEWER_TOKEN });
    const res = await callJson<StatusBody>(t.sim, `${VESSELS}/lobby-1`, 403, {
      token: DEMO_VIEWER_TOKEN,
      method: 'DELETE',
    });
    expect(res.details).toEqual({ resource: 'VESSELS', method: 'DELETE' });
  });

  it('rejects a malformed service account', () => {
    expect(() => t.sim.addServiceAccount({ name: 'x', permissions: { IMAGES: ['PUT' as never] } })).toThrow(
      /permissions\.IMAGES/,
    );
  });
});

describe('POST /auth/token', () => {
  it('issues an expiring token for the password grant', async () => {
    const res = await tokenRequest({ ...login, scope: 'openid email profile' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as TokenBody;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 60, access_token: expect.any(String) });
    expect(body.refresh_token).toBeUndefined();

    await callJson(t.sim, `${IMAGES}/dev`, 200, { token: body.access_token });
    expect(t.sim.requests.at(-1)).toMatchObject({
      path: `${IMAGES}/dev`,
      status: 200,
      account: 'harbormaster@demo.local',
    });
    await t.clock.advance(59_999);
    await callJson(t.sim, `${IMAGES}/dev`, 200, { token: body.access_token });
    await t.clock.advance(1);
    const expired = await callJson<StatusBody>(t.sim, `${IMAGES}/dev`, 401, { token: body.access_token });
    expect(expired.message).toBe('Unauthorized: token expired');
  });

  it('returns a refresh token with offline_access, and the refresh grant issues a new access token', async () => {
    // With offline_access the answer carries a refresh token.
    const first = (await (
      await tokenRequest({ ...login, scope: 'openid offline_access' })
    ).json()) as Required<TokenBody>;
    expect(first.refresh_token).toEqual(expect.any(String));
    await t.clock.advance(120_000);
    await callJson(t.sim, `${IMAGES}/dev`, 401, { token: first.access_token });
    const res = await tokenRequest({
      client_id: 'api',
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
    });
    expect(res.status).toBe(200);
    const second = (await res.json()) as TokenBody;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).toEqual(expect.any(String));
    await callJson(t.sim, `${IMAGES}/dev`, 200, { token: second.access_token });
  });

  it.each([
    ['a wrong password', { ...login, password: 'nope' }, 401, 'invalid_grant'],
    ['an unknown user', { ...login, username: 'who@demo' }, 401, 'invalid_grant'],
    ['an unknown client', { ...login, client_id: 'web' }, 401, 'invalid_client'],
    [
      'a missing password',
      { client_id: 'api', grant_type: 'password', username: 'x' },
      400,
      'invalid_request',
    ],
    [
      'an unsupported grant',
      { client_id: 'api', grant_type: 'client_credentials' },
      400,
      'unsupported_grant_type',
    ],
    [
      'an unknown refresh token',
      { client_id: 'api', grant_type: 'refresh_token', refresh_token: 'r' },
      400,
      'invalid_grant',
    ],
  ])('refuses %s', async (_label, form, status, error) => {
    const res = await tokenRequest(form as Record<string, string>);
    expect(res.status).toBe(status);
    const body = (await res.json()) as TokenError;
    expect(body).toEqual({ error, error_description: expect.any(String) });
  });

  it('requires a form-encoded body', async () => {
    const res = await tokenRequest(login, 'application/json');
    expect(res.status).toBe(400);
    expect(((await res.json()) as TokenError).error).toBe('invalid_request');
  });
});
