/**
 * The acceptance flow against the simulator with raw HTTP (global
 * fetch, not our client), the way a user would send it with curl. Steps run in
 * order against one simulator; the ManualClock stands in for waiting.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Formation, Image, Region, Vessel } from '../../src/api-shapes/resources.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';

let sim: Simulator;
const clock = new ManualClock();

beforeAll(async () => {
  sim = await startSimulator({ port: 0, clock, stepMs: 1000, terminationMs: 2000, logLinesPerSecond: 5 });
});
afterAll(() => sim.stop());

const BASE = '/api/formation/v1/environments/dev';

interface List<T> {
  items: T[];
}

/** A raw call; `T` is what the test reads of the JSON body (every call here expects one). */
async function http<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${sim.token}`,
    accept: 'application/json',
  };
  if (body !== undefined) headers['content-type'] = contentType;
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

describe('the documented request flows', () => {
  let gameServer120 = '';
  const vesselName = 'e2e-vessel';

  it('lists images of a branch', async () => {
    const res = await http<List<Image>>('GET', '/api/container/v1/images/scopes/dev');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => `${i.spec.image}:${i.spec.tag}`)).toContain('game-server:1.2.0');
  });

  it('looks up an internal image name by fieldSelector', async () => {
    const res = await http<List<Image>>(
      'GET',
      '/api/container/v1/images/scopes/dev?fieldSelector=spec.image=game-server,spec.tag=1.2.0',
    );
    expect(res.body.items).toHaveLength(1);
    gameServer120 = res.body.items[0]?.metadata.name ?? '';
    expect(gameServer120).toMatch(/^img-[0-9a-f]{8}$/);
  });

  it('promotes it from dev to prod', async () => {
    const res = await http('POST', '/api/container/v1/imagepromotions/scopes/prod', {
      apiVersion: 'container/v1',
      kind: 'ImagePromotion',
      metadata: { name: randomUUID(), branch: 'prod' },
      spec: { branch: 'dev', imageName: gameServer120 },
    });
    expect(res.status).toBe(201);
    const prod = await http<List<Image>>(
      'GET',
      '/api/container/v1/images/scopes/prod?fieldSelector=spec.image=game-server,spec.tag=1.2.0',
    );
    expect(prod.body.items).toHaveLength(1);
    expect(prod.body.items[0]?.metadata.name).not.toBe(gameServer120);
  });

  it("creates a Vessel with the seed's payload and lists Vessels until it is scheduled", async () => {
    const created = await http<Vessel>('POST', `${BASE}/vessels`, {
      apiVersion: 'formation/v1beta1',
      kind: 'Vessel',
      metadata: { name: vesselName, environment: 'dev' },
      spec: {
        description: 'created by the e2e test',
        region: 'eu-central',
        template: {
          spec: {
            containers: [
              {
                name: 'game-server',
                branch: 'dev',
                image: gameServer120,
                ports: [{ name: 'game', policy: 'Passthrough', containerPort: 7777, protocol: 'UDP' }],
                args: ['--mode', 'e2e'],
                resources: { requests: { cpu: '250m', memory: '512Mi' } },
              },
            ],
          },
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.status?.state).toBe('Pending');

    const seen: (string | undefined)[] = [];
    for (let poll = 0; poll < 10; poll++) {
      const list = await http<List<Vessel>>('GET', `${BASE}/vessels`);
      const state = list.body.items.find((v) => v.metadata.name === vesselName)?.status?.state;
      seen.push(state);
      if (state && ['Scheduled', 'Created', 'Starting', 'Running'].includes(state)) break;
      await clock.advance(500);
    }
    expect(seen).toEqual(['Pending', 'Pending', 'Scheduled']);
    await clock.advance(3000);
    expect((await http<Vessel>('GET', `${BASE}/vessels/${vesselName}`)).body.status?.state).toBe('Running');
  });

  it('reads its logs with follow=true: a few streamed lines, then abort', async () => {
    const abort = new AbortController();
    const res = await fetch(`${sim.url}${BASE}/vessels/${vesselName}/logs?follow=true`, {
      headers: { authorization: `Bearer ${sim.token}`, connection: 'keep-alive' },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    await sim.whenLogStreams(1);
    await clock.advance(1000);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (text.split('\n').length < 6) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const lines = text.split('\n').slice(0, 5);
    expect(lines[0]).toContain('[boot] container game-server starting');
    expect(lines.slice(2).every((l) => /^\d{4}-\d\d-\d\dT.*Z (INFO|DEBUG|WARN) \[/.test(l))).toBe(true);
    abort.abort();
    await sim.whenLogStreams(0);
  });

  it('deletes it and sees Terminating, then 404', async () => {
    const deleted = await http<Vessel>('DELETE', `${BASE}/vessels/${vesselName}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.status?.state).toBe('Terminating');
    expect((await http<Vessel>('GET', `${BASE}/vessels/${vesselName}`)).body.status?.state).toBe(
      'Terminating',
    );
    await clock.advance(2000);
    expect((await http('GET', `${BASE}/vessels/${vesselName}`)).status).toBe(404);
  });

  it('appends a Vessel to a Formation without overrides and sees the controller create it', async () => {
    const res = await http(
      'PATCH',
      `${BASE}/formations/lobby`,
      [{ op: 'add', path: '/spec/vessels/-', value: { name: 'lobby-3', region: 'eu-central' } }],
      'application/json-patch+json',
    );
    expect(res.status).toBe(200);
    const vessel = await http<Vessel>('GET', `${BASE}/vessels/lobby-3`);
    expect(vessel.status).toBe(200);
    expect(vessel.body.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Formation', name: 'lobby', controller: true }),
    ]);
    expect(vessel.body.spec.template.spec.containers[0]?.args).toEqual(['--mode', 'lobby']);
  });

  it('appends a Vessel with overrides and sees them applied', async () => {
    const res = await http(
      'PATCH',
      `${BASE}/formations/lobby`,
      [
        {
          op: 'add',
          path: '/spec/vessels/-',
          value: {
            name: 'lobby-4',
            region: 'eu-central',
            override: {
              containers: [{ name: 'game-server', image: gameServer120, args: ['--mode', 'canary'] }],
            },
          },
        },
      ],
      'application/json-patch+json',
    );
    expect(res.status).toBe(200);
    const vessel = await http<Vessel>('GET', `${BASE}/vessels/lobby-4`);
    expect(vessel.body.spec.template.spec.containers[0]).toMatchObject({
      image: gameServer120,
      args: ['--mode', 'canary'],
    });
    expect(vessel.body.metadata.ownerReferences?.[0]?.name).toBe('lobby');
  });

  it('removes one by index behind a test operation and sees it deleted', async () => {
    const formation = await http<Formation>('GET', `${BASE}/formations/lobby`);
    const index = formation.body.spec.vessels.findIndex((v) => v.name === 'lobby-3');
    expect(index).toBe(2);
    const res = await http<Formation>(
      'PATCH',
      `${BASE}/formations/lobby`,
      [
        { op: 'test', path: `/spec/vessels/${index}/name`, value: 'lobby-3' },
        { op: 'remove', path: `/spec/vessels/${index}` },
      ],
      'application/json-patch+json',
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.vessels.map((v) => v.name)).toEqual(['lobby-1', 'lobby-2', 'lobby-4']);
    expect((await http<Vessel>('GET', `${BASE}/vessels/lobby-3`)).body.status?.state).toBe('Terminating');
    await clock.advance(2000);
    expect((await http('GET', `${BASE}/vessels/lobby-3`)).status).toBe(404);

    const stale = await http(
      'PATCH',
      `${BASE}/formations/lobby`,
      [
        { op: 'test', path: `/spec/vessels/${index}/name`, value: 'lobby-3' },
        { op: 'remove', path: `/spec/vessels/${index}` },
      ],
      'application/json-patch+json',
    );
    expect(stale.status).toBe(422); // the stale index now holds lobby-4, which stays
    expect((await http('GET', `${BASE}/vessels/lobby-4`)).status).toBe(200);
  });

  it('creates a Region with Distributed scheduling', async () => {
    const res = await http('POST', '/api/core/v1/environments/dev/regions', {
      apiVersion: 'core/v1',
      kind: 'Region',
      metadata: { name: 'us-east', environment: 'dev' },
      spec: {
        displayName: 'US East',
        types: [{ name: 'baremetal', locations: ['nyc-bm-1'], template: { scheduling: 'Distributed' } }],
      },
    });
    expect(res.status).toBe(201);
    const region = await http<Region>('GET', '/api/core/v1/environments/dev/regions/us-east');
    expect(region.body.spec.types[0]?.template?.scheduling).toBe('Distributed');
  });
});
