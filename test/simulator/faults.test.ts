import { afterEach, describe, expect, it } from '@jest/globals';
import { globToRegExp } from '../../src/simulator/faults.js';
import type { RequestLogEntry } from '../../src/simulator/types.js';
import {
  call,
  callJson,
  IMAGES,
  LineReader,
  type StatusBody,
  startTestSim,
  type TestSim,
  VESSELS,
} from './helpers.js';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.sim.stop();
  t = undefined;
});

async function sim(options: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
  t = await startTestSim(options);
  return t;
}

describe('path globs', () => {
  it('matches * within one segment and ** across segments', () => {
    expect(
      globToRegExp('/api/container/v1/images/scopes/*').test('/api/container/v1/images/scopes/dev'),
    ).toBe(true);
    expect(
      globToRegExp('/api/container/v1/images/scopes/*').test('/api/container/v1/images/scopes/dev/x'),
    ).toBe(false);
    expect(globToRegExp('/api/**').test('/api/formation/v1/environments/dev/vessels')).toBe(true);
    expect(globToRegExp('/api/**/logs').test('/api/formation/v1/environments/dev/vessels/lobby-1/logs')).toBe(
      true,
    );
    expect(
      globToRegExp('/api/**/vessels/lobby-*').test('/api/formation/v1/environments/dev/vessels/lobby-2'),
    ).toBe(true);
    expect(globToRegExp('/auth/token').test('/auth/tokenx')).toBe(false);
  });
});

describe('injected faults', () => {
  it('answers 429 with Retry-After for the next N matching requests only', async () => {
    const { sim: s } = await sim({
      faults: [{ path: '/api/container/**', status: 429, retryAfterSeconds: 7, times: 2 }],
    });
    for (let i = 0; i < 2; i++) {
      const res = await call(s, `${IMAGES}/dev`);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    }
    expect((await call(s, `${IMAGES}/dev`)).status).toBe(200);
    expect(s.requests.map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it('answers 503 for a share of requests, decided by the injected random source', async () => {
    const rolls = [0.1, 0.9, 0.2, 0.8];
    let i = 0;
    const { sim: s } = await sim({ random: () => rolls[i++ % rolls.length] as number });
    s.setFaults([{ method: 'GET', path: '/api/**', status: 503, share: 0.5 }]);
    i = 0; // ids drawn at start-up used the source too
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) statuses.push((await call(s, `${VESSELS}/lobby-1`)).status);
    expect(statuses).toEqual([503, 200, 503, 200]);
  });

  it('only applies a rule to its method', async () => {
    const { sim: s } = await sim({ faults: [{ method: 'POST', path: '/api/**', status: 500 }] });
    expect((await call(s, `${IMAGES}/dev`)).status).toBe(200);
    expect((await call(s, VESSELS, { body: {} })).status).toBe(500);
  });

  it('drops the connection without an answer', async () => {
    const { sim: s } = await sim({ faults: [{ path: '/api/**', dropConnection: true, times: 1 }] });
    await expect(call(s, `${IMAGES}/dev`)).rejects.toThrow();
    expect(s.requests[0]).toMatchObject({ path: `${IMAGES}/dev`, status: 0 });
    expect((await call(s, `${IMAGES}/dev`)).status).toBe(200);
  });

  it('adds latency on the injected clock', async () => {
    const { sim: s, clock } = await sim({ faults: [{ path: '/api/**', latencyMs: 5000 }] });
    let answered = false;
    const pending = call(s, `${IMAGES}/dev`).then((res) => {
      answered = true;
      return res;
    });
    await clock.whenSleeping(1);
    await clock.advance(4999);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await pending).status).toBe(200);
  });

  it('cuts a log stream after N lines', async () => {
    const { sim: s } = await sim({ faults: [{ path: '/api/**/logs', cutLogStreamAfterLines: 3 }] });
    const res = await call(s, `${VESSELS}/lobby-1/logs?follow=true&tailLines=0`);
    expect(res.status).toBe(200);
    const reader = new LineReader(res.body);
    await s.whenLogStreams(1);
    s.emitLogLines('dev', 'lobby-1', ['one', 'two', 'three', 'four', 'five']);
    expect(await reader.lines(3)).toEqual(['one', 'two', 'three']);
    await expect(reader.rest()).rejects.toThrow();
    expect(s.openLogStreams()).toBe(0);
  });

  it('cuts a non-follow log read too', async () => {
    const { sim: s } = await sim({ faults: [{ path: '/api/**/logs', cutLogStreamAfterLines: 1 }] });
    s.emitLogLines('dev', 'lobby-1', ['a', 'b']);
    const res = await call(s, `${VESSELS}/lobby-1/logs`);
    await expect(res.text()).rejects.toThrow();
  });
});

describe('control endpoints', () => {
  it('sets, lists and clears faults over HTTP without being recorded', async () => {
    const { sim: s } = await sim();
    const set = await fetch(`${s.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ path: '/api/container/**', status: 500, times: 1 }]),
    });
    expect(set.status).toBe(200);
    expect(await (await fetch(`${s.url}/_sim/faults`)).json()).toEqual([
      { path: '/api/container/**', status: 500, times: 1, remaining: 1 },
    ]);
    const failed = await callJson(s, `${IMAGES}/dev`, 500);
    expect(failed).toMatchObject({ reason: 'InternalError', code: 500 });
    await callJson(s, `${IMAGES}/dev`, 200);

    await fetch(`${s.url}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify([{ path: '/api/**', status: 503 }]),
    });
    expect((await fetch(`${s.url}/_sim/faults`, { method: 'DELETE' })).status).toBe(200);
    await callJson(s, `${IMAGES}/dev`, 200);
    expect(s.requests.map((r) => r.status)).toEqual([500, 200, 200]);
  });

  it('refuses invalid rules with 400 naming the field', async () => {
    const { sim: s } = await sim();
    const res = await fetch(`${s.url}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify([{ path: '/api/**', share: 2 }]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as StatusBody).message).toContain('[0.share]');
    expect(() => s.setFaults([{ path: '' }])).toThrow(
      'invalid fault rules: [0.path]: Too small: expected string to have >=1 characters',
    );
  });

  it('reads and clears the request log', async () => {
    const { sim: s } = await sim();
    await callJson(s, `${IMAGES}/dev?fieldSelector=spec.tag%3D1.0.0`, 200);
    const log = (await (await fetch(`${s.url}/_sim/requests`)).json()) as RequestLogEntry[];
    expect(log).toEqual([
      {
        at: expect.any(Number),
        method: 'GET',
        path: `${IMAGES}/dev`,
        query: { fieldSelector: 'spec.tag=1.0.0' },
        status: 200,
        account: 'harbormaster@demo.local',
      },
    ]);
    await fetch(`${s.url}/_sim/requests`, { method: 'DELETE' });
    expect(s.requests).toEqual([]);
  });

  it('pushes log lines to a Vessel', async () => {
    const { sim: s } = await sim();
    const res = await fetch(`${s.url}/_sim/logs/dev/lobby-1`, { method: 'POST', body: 'hello\nworld\n' });
    expect(res.status).toBe(204);
    const text = await (await call(s, `${VESSELS}/lobby-1/logs?tailLines=2`)).text();
    expect(text).toBe('hello\nworld\n');
    const missing = await fetch(`${s.url}/_sim/logs/dev/nope`, { method: 'POST', body: 'x' });
    expect(missing.status).toBe(404);
  });
});
