import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Vessel } from '../../src/api-shapes/resources.js';
import { matchRoute } from '../../src/simulator/routes.js';
import {
  call,
  callJson,
  FORMATIONS,
  IMAGES,
  type List,
  type StatusBody,
  startTestSim,
  type TestSim,
  VESSELS,
} from './helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim();
});
afterEach(() => t.sim.stop());

describe('routing', () => {
  it('matches patterns and decodes parameters', () => {
    expect(matchRoute('/api/formation/v1/environments/dev/vessels/lobby-1/logs')?.params).toEqual({
      env: 'dev',
      name: 'lobby-1',
    });
    expect(matchRoute('/api/container/v1/images/scopes/d%65v')?.params).toEqual({ branch: 'dev' });
    expect(matchRoute('/api/container/v1/images/scopes/')).toBeUndefined();
    expect(matchRoute('/api/container/v2/images/scopes/dev')).toBeUndefined();
  });

  it('answers 404 Status for an unknown route, inside and outside /api', async () => {
    const inside = await callJson(t.sim, '/api/fleet/v1/environments/dev/fleets', 404);
    expect(inside).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    const outside = await callJson<StatusBody>(t.sim, '/healthz', 404);
    expect(outside.kind).toBe('Status');
    expect(t.sim.requests.map((r) => r.path)).toEqual(['/api/fleet/v1/environments/dev/fleets']);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const res = await call(t.sim, `${IMAGES}/dev`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.json()).toMatchObject({ reason: 'MethodNotAllowed', code: 405 });
  });

  it('checks the token before routing', async () => {
    const res = await call(t.sim, '/api/nothing/here', { token: null });
    expect(res.status).toBe(401);
  });

  it('answers 404 naming an unknown environment', async () => {
    const res = await callJson<StatusBody>(t.sim, '/api/core/v1/environments/qa/regions', 404);
    expect(res.message).toBe('environment "qa" not found');
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await call(t.sim, VESSELS, { body: `"${'x'.repeat(1024 * 1024 + 10)}"` });
    expect(res.status).toBe(413);
  });
});

describe('request log', () => {
  it('records method, path, query, final status and account for each API request', async () => {
    await callJson(t.sim, `${VESSELS}?labelSelector=app%3Dx`, 200);
    await callJson(t.sim, `${FORMATIONS}/nope`, 404);
    await call(t.sim, `${FORMATIONS}/lobby`, { token: 'bad' });
    expect(t.sim.requests).toEqual([
      {
        at: Date.UTC(2026, 0, 1),
        method: 'GET',
        path: VESSELS,
        query: { labelSelector: 'app=x' },
        status: 200,
        account: 'harbormaster@demo.local',
      },
      {
        at: Date.UTC(2026, 0, 1),
        method: 'GET',
        path: `${FORMATIONS}/nope`,
        query: {},
        status: 404,
        account: 'harbormaster@demo.local',
      },
      { at: Date.UTC(2026, 0, 1), method: 'GET', path: `${FORMATIONS}/lobby`, query: {}, status: 401 },
    ]);
  });

  it('counts requests by method and path prefix, and clears', async () => {
    await callJson(t.sim, VESSELS, 200);
    await callJson(t.sim, `${VESSELS}/lobby-1`, 200);
    await call(t.sim, `${VESSELS}/lobby-1`, { method: 'DELETE' });
    expect(t.sim.countRequests('GET', VESSELS)).toBe(2);
    expect(t.sim.countRequests('delete', `${VESSELS}/lobby-1`)).toBe(1);
    expect(t.sim.countRequests('*', '/api/')).toBe(3);
    const held = t.sim.requests;
    t.sim.clearRequests();
    expect(held).toEqual([]);
  });
});

describe('labelSelector', () => {
  it('filters Vessels by label', async () => {
    await call(t.sim, `${FORMATIONS}/lobby`, {
      method: 'PATCH',
      contentType: 'application/json-patch+json',
      body: [{ op: 'add', path: '/spec/vessels/1/override/labels', value: { tier: 'big' } }],
    });
    const big = await callJson<List<Vessel>>(t.sim, `${VESSELS}?labelSelector=tier=big`, 200);
    expect(big.items.map((v) => v.metadata.name)).toEqual(['lobby-2']);
    const notBig = await callJson<List<Vessel>>(t.sim, `${VESSELS}?labelSelector=tier!=big`, 200);
    expect(notBig.items.map((v) => v.metadata.name)).toEqual(['duel-1', 'lobby-1']);
  });
});
