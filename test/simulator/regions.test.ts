import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Region } from '../../src/api-shapes/resources.js';
import {
  callJson,
  type InvalidBody,
  type List,
  patch,
  REGIONS,
  type StatusBody,
  startTestSim,
  type TestSim,
} from './helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim();
});
afterEach(() => t.sim.stop());

function region(name: string, types: unknown[] = [{ name: 'baremetal', locations: ['fra-bm-2'] }]) {
  return {
    apiVersion: 'core/v1',
    kind: 'Region',
    metadata: { name, environment: 'dev' },
    spec: { displayName: 'Test', types },
  };
}

describe('Region create', () => {
  it('creates a Region with Distributed scheduling and reads it back', async () => {
    const created = await callJson<Region>(t.sim, REGIONS, 201, {
      body: region('us-east', [
        { name: 'cloud', locations: ['nyc-1'], template: { scheduling: 'Distributed' } },
      ]),
    });
    expect(created.spec.types).toEqual([
      { name: 'cloud', locations: ['nyc-1'], template: { scheduling: 'Distributed' } },
    ]);
    const got = await callJson<Region>(t.sim, `${REGIONS}/us-east`, 200);
    expect(got.spec.types[0]?.template?.scheduling).toBe('Distributed');
    const list = await callJson<List<Region>>(t.sim, REGIONS, 200);
    expect(list.items.map((r) => r.metadata.name)).toEqual(['eu-central', 'us-east', 'us-west']);
  });

  it('defaults scheduling to Packed and locations to []', async () => {
    const created = await callJson<Region>(t.sim, REGIONS, 201, {
      body: region('ap-south', [{ name: 'cloud' }]),
    });
    expect(created.spec.types).toEqual([
      { name: 'cloud', locations: [], template: { scheduling: 'Packed' } },
    ]);
  });

  it.each([
    [
      'an unknown scheduling',
      region('r1', [{ name: 'c', template: { scheduling: 'Spread' } }]),
      'spec.types[0].template.scheduling',
    ],
    ['a name over 24 characters', region('a-region-name-that-is-too-long'), 'metadata.name'],
    ['no types', region('r2', []), 'spec.types'],
    ['duplicate type names', region('r3', [{ name: 'c' }, { name: 'c' }]), 'spec.types[1].name'],
    ['a wrong apiVersion', { ...region('r4'), apiVersion: 'core/v2' }, 'apiVersion'],
    ['a wrong kind', { ...region('r5'), kind: 'Zone' }, 'kind'],
  ])('answers 422 for %s', async (_label, body, field) => {
    const res = await callJson<InvalidBody>(t.sim, REGIONS, 422, { body });
    expect(res.reason).toBe('Invalid');
    expect(res.details.causes.map((c) => c.field)).toContain(field);
  });

  it('names the allowed scheduling values', async () => {
    const res = await callJson<StatusBody>(t.sim, REGIONS, 422, {
      body: region('r1', [{ name: 'c', template: { scheduling: 'Spread' } }]),
    });
    expect(res.message).toContain('Unsupported value: "Spread": supported values: "Packed", "Distributed"');
  });

  it('answers 409 for a taken name', async () => {
    const res = await callJson<StatusBody>(t.sim, REGIONS, 409, { body: region('eu-central') });
    expect(res.reason).toBe('AlreadyExists');
  });
});

describe('Region PATCH', () => {
  const EU = `${REGIONS}/eu-central`;

  it("changes a Region Type's scheduling with a guarded JSON Patch", async () => {
    const res = await patch(t.sim, EU, [
      { op: 'test', path: '/spec/types/1/name', value: 'cloud' },
      { op: 'replace', path: '/spec/types/1/template/scheduling', value: 'Packed' },
    ]);
    expect(res.status).toBe(200);
    expect(t.sim.state.getRegion('dev', 'eu-central')?.spec.types[1]?.template?.scheduling).toBe('Packed');
  });

  it('re-validates the result: an unknown scheduling is 422 and changes nothing', async () => {
    const before = t.sim.state.getRegion('dev', 'eu-central');
    const res = await patch(t.sim, EU, [
      { op: 'replace', path: '/spec/types/0/template/scheduling', value: 'Spread' },
    ]);
    expect(res.status).toBe(422);
    expect(t.sim.state.getRegion('dev', 'eu-central')).toEqual(before);
  });

  it('accepts a merge patch and keeps name and environment immutable', async () => {
    const ok = await patch(t.sim, EU, { spec: { displayName: 'Frankfurt' } }, 'application/merge-patch+json');
    expect(ok.status).toBe(200);
    expect(t.sim.state.getRegion('dev', 'eu-central')?.spec.displayName).toBe('Frankfurt');
    const renamed = await patch(
      t.sim,
      EU,
      { metadata: { environment: 'prod' } },
      'application/merge-patch+json',
    );
    expect(renamed.status).toBe(422);
    expect(((await renamed.json()) as StatusBody).message).toContain('metadata.environment');
  });

  it('answers 404 for an unknown Region', async () => {
    const res = await patch(t.sim, `${REGIONS}/nowhere`, []);
    expect(res.status).toBe(404);
  });
});
