import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Vessel } from '../../src/api-shapes/resources.js';
import {
  call,
  callJson,
  type InvalidBody,
  img,
  type List,
  REGIONS,
  type StatusBody,
  startTestSim,
  type TestSim,
  VESSELS,
  vesselPayload,
} from './helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim({ stepMs: 1000, terminationMs: 2000 });
});
afterEach(() => t.sim.stop());

async function stateOf(name: string): Promise<unknown> {
  const body = await callJson<Vessel>(t.sim, `${VESSELS}/${name}`, 200);
  return body.status;
}

describe('Vessel create and lifecycle', () => {
  it('creates the seed payload and moves Pending -> Scheduled -> Created -> Starting -> Running', async () => {
    const created = await callJson<Vessel>(t.sim, VESSELS, 201, { body: vesselPayload('test-1') });
    expect(created.metadata).toMatchObject({ name: 'test-1', environment: 'dev' });
    expect(created.metadata.uid).toEqual(expect.any(String));
    expect(created.status).toEqual({ state: 'Pending' });

    const seen: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      seen.push(await stateOf('test-1'));
      await t.clock.advance(1000);
    }
    expect(seen).toEqual([
      { state: 'Pending' },
      { state: 'Scheduled' },
      { state: 'Created' },
      { state: 'Starting' },
      { state: 'Running' },
    ]);
    await t.clock.advance(60_000);
    expect(await stateOf('test-1')).toEqual({ state: 'Running' });
  });

  it('lists Vessels with their computed status', async () => {
    await callJson(t.sim, VESSELS, 201, { body: vesselPayload('test-1') });
    await t.clock.advance(1000);
    const list = await callJson<List<Vessel>>(t.sim, VESSELS, 200);
    const byName = Object.fromEntries(list.items.map((v) => [v.metadata.name, v.status?.state]));
    expect(byName).toEqual({
      'duel-1': 'Running',
      'lobby-1': 'Running',
      'lobby-2': 'Running',
      'test-1': 'Scheduled',
    });
  });

  it('accepts apiVersion formation/v1 as well', async () => {
    const body = { ...vesselPayload('test-v1'), apiVersion: 'formation/v1' };
    await callJson(t.sim, VESSELS, 201, { body });
  });

  it('answers 409 AlreadyExists for a taken name', async () => {
    await callJson(t.sim, VESSELS, 201, { body: vesselPayload('test-1') });
    const dup = await callJson(t.sim, VESSELS, 409, { body: vesselPayload('test-1') });
    expect(dup).toMatchObject({ reason: 'AlreadyExists', message: 'Vessel "test-1" already exists' });
  });

  it('goes to Error "No suitable site found" when its region has no location', async () => {
    await callJson(t.sim, REGIONS, 201, {
      body: {
        apiVersion: 'core/v1',
        kind: 'Region',
        metadata: { name: 'empty', environment: 'dev' },
        spec: { types: [{ name: 'cloud', locations: [] }] },
      },
    });
    const created = await callJson<Vessel>(t.sim, VESSELS, 201, {
      body: vesselPayload('test-1', { region: 'empty' }),
    });
    expect(created.status).toEqual({ state: 'Error', reason: 'No suitable site found' });
    await t.clock.advance(10_000);
    expect(await stateOf('test-1')).toEqual({ state: 'Error', reason: 'No suitable site found' });
  });
});

describe('Vessel delete', () => {
  it('moves to Terminating (UserInitiated), then disappears after the termination time', async () => {
    await callJson(t.sim, VESSELS, 201, { body: vesselPayload('test-1') });
    const deleted = await callJson<Vessel>(t.sim, `${VESSELS}/test-1`, 200, { method: 'DELETE' });
    expect(deleted.status).toEqual({ state: 'Terminating', reason: 'UserInitiated' });
    await t.clock.advance(1999);
    expect(await stateOf('test-1')).toEqual({ state: 'Terminating', reason: 'UserInitiated' });
    await t.clock.advance(1);
    const gone = await callJson(t.sim, `${VESSELS}/test-1`, 404);
    expect(gone).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    const list = await callJson<List<Vessel>>(t.sim, VESSELS, 200);
    expect(list.items.map((v) => v.metadata.name)).not.toContain('test-1');
  });

  it('keeps the first deadline when deleted twice', async () => {
    await callJson(t.sim, VESSELS, 201, { body: vesselPayload('test-1') });
    await callJson(t.sim, `${VESSELS}/test-1`, 200, { method: 'DELETE' });
    await t.clock.advance(1500);
    await callJson(t.sim, `${VESSELS}/test-1`, 200, { method: 'DELETE' });
    await t.clock.advance(500);
    await callJson(t.sim, `${VESSELS}/test-1`, 404);
  });

  it('answers 404 for an unknown Vessel', async () => {
    const body = await callJson<StatusBody>(t.sim, `${VESSELS}/nope`, 404, { method: 'DELETE' });
    expect(body.message).toBe('Vessel "nope" not found in environment "dev"');
  });
});

describe('Vessel create validation', () => {
  type Payload = ReturnType<typeof vesselPayload>;
  type PayloadContainer = Payload['spec']['template']['spec']['containers'][number];
  /** The payload's first container, with its one port (vesselPayload has both). */
  type FirstContainer = PayloadContainer & { ports: [PayloadContainer['ports'][number]] };
  /** Edits the first container of the payload. */
  const mutate = (edit: (c: FirstContainer) => void) => (p: Payload) => {
    edit(p.spec.template.spec.containers[0] as FirstContainer);
    return p;
  };
  const cases: Array<[string, (p: Payload) => unknown, string]> = [
    ['a wrong kind', (p) => ({ ...p, kind: 'Vessels' }), 'kind'],
    ['a missing kind', ({ kind: _k, ...rest }) => rest, 'kind'],
    ['an unknown apiVersion', (p) => ({ ...p, apiVersion: 'formation/v2' }), 'apiVersion'],
    ['a missing apiVersion', ({ apiVersion: _a, ...rest }) => rest, 'apiVersion'],
    ['an invalid name', (p) => ({ ...p, metadata: { ...p.metadata, name: 'Bad_Name' } }), 'metadata.name'],
    [
      'another environment',
      (p) => ({ ...p, metadata: { ...p.metadata, environment: 'prod' } }),
      'metadata.environment',
    ],
    ['no region', (p) => ({ ...p, spec: { ...p.spec, region: undefined } }), 'spec.region'],
    ['an unknown region', (p) => ({ ...p, spec: { ...p.spec, region: 'ap-east' } }), 'spec.region'],
    [
      'no containers',
      (p) => ({ ...p, spec: { ...p.spec, template: { spec: { containers: [] } } } }),
      'spec.template.spec.containers',
    ],
    [
      'an image missing from the branch',
      mutate((c) => (c.image = img('prod', 'game-server', '1.0.0'))),
      'spec.template.spec.containers[0].image',
    ],
    ['an unknown branch', mutate((c) => (c.branch = 'qa')), 'spec.template.spec.containers[0].branch'],
    ['no container name', mutate((c) => (c.name = '')), 'spec.template.spec.containers[0].name'],
    [
      'a bad port policy',
      mutate((c) => (c.ports[0].policy = 'Static')),
      'spec.template.spec.containers[0].ports[0].policy',
    ],
    [
      'a bad protocol',
      mutate((c) => (c.ports[0].protocol = 'SCTP')),
      'spec.template.spec.containers[0].ports[0].protocol',
    ],
    [
      'a port out of range',
      mutate((c) => (c.ports[0].containerPort = 70000)),
      'spec.template.spec.containers[0].ports[0].containerPort',
    ],
    [
      'a bad cpu quantity',
      mutate((c) => (c.resources.requests.cpu = 'lots')),
      'spec.template.spec.containers[0].resources.requests.cpu',
    ],
  ];

  it.each(cases)('answers 422 Invalid for %s, naming the field', async (_label, change, field) => {
    const res = await callJson<InvalidBody>(t.sim, VESSELS, 422, { body: change(vesselPayload('test-1')) });
    expect(res).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
    expect(res.details.causes.map((c) => c.field)).toContain(field);
    expect(res.message).toContain(`${field}:`);
    expect(t.sim.state.getVessel('dev', 'test-1')).toBeUndefined();
  });

  it('names every problem at once', async () => {
    const body = { ...vesselPayload('Bad'), kind: 'Pod', spec: { region: 'nowhere' } };
    const res = await callJson<InvalidBody>(t.sim, VESSELS, 422, { body });
    const fields = res.details.causes.map((c) => c.field);
    expect(fields).toEqual(
      expect.arrayContaining(['kind', 'metadata.name', 'spec.region', 'spec.template.spec.containers']),
    );
  });

  it('answers 400 for a body that is not an object and 404 for an unknown environment', async () => {
    const notObject = await callJson<StatusBody>(t.sim, VESSELS, 400, { body: [1, 2] });
    expect(notObject.reason).toBe('BadRequest');
    const env = await callJson<StatusBody>(t.sim, '/api/formation/v1/environments/qa/vessels', 404, {
      body: vesselPayload('x'),
    });
    expect(env.message).toBe('environment "qa" not found');
  });

  it('accepts a YAML body', async () => {
    const yaml = [
      'apiVersion: formation/v1beta1',
      'kind: Vessel',
      'metadata: {name: yaml-1, environment: dev}',
      'spec:',
      '  region: eu-central',
      '  template:',
      '    spec:',
      `      containers: [{name: game-server, branch: dev, image: ${img('dev', 'game-server', '1.0.0')}}]`,
    ].join('\n');
    await callJson(t.sim, VESSELS, 201, { body: yaml, contentType: 'application/yaml' });
  });

  it("accepts formation/v1beta1 (the docs' example) and formation/v1 in real-shapes mode too", async () => {
    // GameFabric/docs src/multiplayer-servers/api/examples.md, "Creating a Vessel", sends formation/v1beta1;
    // the provider's typed client sends formation/v1. Neither is refused unless a test asks for it.
    const real = await startTestSim({ realShapes: true });
    try {
      await callJson(real.sim, VESSELS, 201, { body: vesselPayload('beta-1') });
      await callJson(real.sim, VESSELS, 201, {
        body: { ...vesselPayload('v1-1'), apiVersion: 'formation/v1' },
      });
      const other = await callJson<StatusBody>(real.sim, VESSELS, 422, {
        body: { ...vesselPayload('v2-1'), apiVersion: 'formation/v2' },
      });
      expect(other.message).toContain('apiVersion');
    } finally {
      await real.sim.stop();
    }
  });

  it('refuses an apiVersion only when asked to (refusedVesselApiVersions), naming it', async () => {
    const refusing = await startTestSim({ refusedVesselApiVersions: ['formation/v1beta1'] });
    try {
      const res = await callJson<StatusBody>(refusing.sim, VESSELS, 400, { body: vesselPayload('beta-1') });
      expect(res.message).toContain('"formation/v1beta1"');
    } finally {
      await refusing.sim.stop();
    }
  });

  it('answers 415 for an unsupported media type', async () => {
    const res = await call(t.sim, VESSELS, { body: 'x', contentType: 'text/plain' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ reason: 'UnsupportedMediaType' });
  });
});
