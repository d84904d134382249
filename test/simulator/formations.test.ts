import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Formation, FormationVessel, Vessel } from '../../src/api-shapes/resources.js';
import {
  call,
  callJson,
  FORMATIONS,
  img,
  type List,
  patch,
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

const LOBBY = `${FORMATIONS}/lobby`;
const vesselNames = (f: Formation | undefined) => f?.spec.vessels.map((v) => v.name);

describe('Formation reads', () => {
  it('gets a Formation with spec.vessels and a Synced status', async () => {
    const lobby = await callJson<Formation>(t.sim, LOBBY, 200);
    expect(vesselNames(lobby)).toEqual(['lobby-1', 'lobby-2']);
    expect(lobby.status).toEqual({ state: 'Synced' });
    expect(lobby.metadata.uid).toEqual(expect.any(String));
  });

  it('lists Formations and 404s an unknown one', async () => {
    const list = await callJson<List<Formation>>(t.sim, FORMATIONS, 200);
    expect(list.items.map((f) => f.metadata.name)).toEqual(['lobby']);
    const missing = await callJson<StatusBody>(t.sim, `${FORMATIONS}/arena`, 404);
    expect(missing.message).toBe('Formation "arena" not found in environment "dev"');
  });
});

describe('Formation PATCH and the controller', () => {
  it('appends a Vessel without overrides: the controller creates it from the template with an owner reference', async () => {
    const res = await patch(t.sim, LOBBY, [
      { op: 'add', path: '/spec/vessels/-', value: { name: 'lobby-3', region: 'eu-central' } },
    ]);
    expect(res.status).toBe(200);
    const lobby = (await res.json()) as Formation;
    expect(vesselNames(lobby)).toEqual(['lobby-1', 'lobby-2', 'lobby-3']);

    const vessel = await callJson<Vessel>(t.sim, `${VESSELS}/lobby-3`, 200);
    expect(vessel.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'formation/v1',
        kind: 'Formation',
        name: 'lobby',
        uid: lobby.metadata.uid,
        controller: true,
      },
    ]);
    expect(vessel.spec.region).toBe('eu-central');
    expect(vessel.spec.template.spec.containers[0]).toMatchObject({
      name: 'game-server',
      branch: 'dev',
      image: img('dev', 'game-server', '1.1.0'),
      args: ['--mode', 'lobby'],
      resources: { requests: { cpu: '250m', memory: '512Mi' } },
    });
    expect(vessel.status).toEqual({ state: 'Pending' });
    await t.clock.advance(4000);
    expect(t.sim.state.getVessel('dev', 'lobby-3')?.status).toEqual({ state: 'Running' });
  });

  it('appends a Vessel with overrides: image and args replace the inherited ones for that Vessel only', async () => {
    const value = {
      name: 'lobby-3',
      region: 'eu-central',
      override: {
        containers: [
          { name: 'game-server', image: img('dev', 'game-server', '1.2.0'), args: ['--mode', 'canary'] },
        ],
      },
    };
    expect((await patch(t.sim, LOBBY, [{ op: 'add', path: '/spec/vessels/-', value }])).status).toBe(200);
    const c3 = t.sim.state.getVessel('dev', 'lobby-3')?.spec.template.spec.containers[0];
    expect(c3).toMatchObject({ image: img('dev', 'game-server', '1.2.0'), args: ['--mode', 'canary'] });
    expect(c3?.ports).toHaveLength(1); // everything else is inherited
    const c1 = t.sim.state.getVessel('dev', 'lobby-1')?.spec.template.spec.containers[0];
    expect(c1).toMatchObject({ image: img('dev', 'game-server', '1.1.0'), args: ['--mode', 'lobby'] });
  });

  it('removes a Vessel by index behind a test guard: it goes Terminating, then is deleted', async () => {
    const res = await patch(t.sim, LOBBY, [
      { op: 'test', path: '/spec/vessels/1/name', value: 'lobby-2' },
      { op: 'remove', path: '/spec/vessels/1' },
    ]);
    expect(res.status).toBe(200);
    expect(vesselNames((await res.json()) as Formation)).toEqual(['lobby-1']);
    expect(t.sim.state.getVessel('dev', 'lobby-2')?.status).toEqual({
      state: 'Terminating',
      reason: 'SpecChange',
    });
    await t.clock.advance(2000);
    expect(t.sim.state.getVessel('dev', 'lobby-2')).toBeUndefined();
    expect(t.sim.state.getVessel('dev', 'lobby-1')?.status).toEqual({ state: 'Running' });
  });

  it('changes nothing when a test fails (422 Invalid naming the path)', async () => {
    const before = await callJson(t.sim, LOBBY, 200);
    const res = await patch(t.sim, LOBBY, [
      { op: 'add', path: '/spec/vessels/-', value: { name: 'lobby-9', region: 'eu-central' } },
      { op: 'test', path: '/spec/vessels/0/name', value: 'lobby-2' },
      { op: 'remove', path: '/spec/vessels/0' },
    ]);
    expect(res.status).toBe(422);
    const status = (await res.json()) as StatusBody;
    expect(status).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect(status.message).toContain('/spec/vessels/0/name');
    expect(status.message).toContain('"lobby-1"');
    const after = await callJson(t.sim, LOBBY, 200);
    expect(after).toEqual(before);
    expect(t.sim.state.getVessel('dev', 'lobby-9')).toBeUndefined();
    expect(t.sim.state.getVessel('dev', 'lobby-1')?.status).toEqual({ state: 'Running' });
  });

  it.each([
    ['a path that does not exist', [{ op: 'remove', path: '/spec/vessels/7' }], '/spec/vessels/7'],
    [
      'an index out of bounds',
      [{ op: 'add', path: '/spec/vessels/9', value: { name: 'x', region: 'r' } }],
      '/spec/vessels/9',
    ],
    ['a changed name', [{ op: 'replace', path: '/metadata/name', value: 'other' }], 'metadata.name'],
    [
      'an entry without region',
      [{ op: 'add', path: '/spec/vessels/-', value: { name: 'lobby-3' } }],
      'spec.vessels[2].region',
    ],
    [
      'a duplicate entry',
      [{ op: 'add', path: '/spec/vessels/-', value: { name: 'lobby-1', region: 'eu-central' } }],
      'spec.vessels[2].name',
    ],
    [
      'an override of an unknown container',
      [
        {
          op: 'add',
          path: '/spec/vessels/-',
          value: { name: 'l3', region: 'eu-central', override: { containers: [{ name: 'web' }] } },
        },
      ],
      'spec.vessels[2].override.containers[0].name',
    ],
    [
      'an override image missing from the branch',
      [
        {
          op: 'add',
          path: '/spec/vessels/-',
          value: {
            name: 'l3',
            region: 'eu-central',
            override: { containers: [{ name: 'game-server', image: 'img-00000000' }] },
          },
        },
      ],
      'spec.vessels[2].override.containers[0].image',
    ],
  ])('answers 422 for %s and changes nothing', async (_label, ops, mention) => {
    const before = await callJson(t.sim, LOBBY, 200);
    const res = await patch(t.sim, LOBBY, ops);
    expect(res.status).toBe(422);
    expect(((await res.json()) as StatusBody).message).toContain(mention);
    expect(await callJson(t.sim, LOBBY, 200)).toEqual(before);
  });

  it('answers 415 for a PATCH with another media type and 400 for a body that is not an array', async () => {
    const wrong = await patch(t.sim, LOBBY, [], 'application/json');
    expect(wrong.status).toBe(415);
    expect(((await wrong.json()) as StatusBody).reason).toBe('UnsupportedMediaType');
    const notArray = await patch(t.sim, LOBBY, { op: 'remove', path: '/spec/vessels/0' });
    expect(notArray.status).toBe(400);
  });

  it('accepts a merge patch', async () => {
    const res = await patch(
      t.sim,
      LOBBY,
      { spec: { description: 'renamed' } },
      'application/merge-patch+json',
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as Formation;
    expect(body.spec.description).toBe('renamed');
    expect(vesselNames(body)).toEqual(['lobby-1', 'lobby-2']);
  });

  it('restarts owned Vessels when the template changes', async () => {
    const image = img('dev', 'game-server', '1.2.0');
    const res = await patch(t.sim, LOBBY, [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: image },
    ]);
    expect(res.status).toBe(200);
    for (const name of ['lobby-1', 'lobby-2']) {
      const vessel = t.sim.state.getVessel('dev', name);
      expect(vessel?.status).toEqual({ state: 'Pending' });
      expect(vessel?.spec.template.spec.containers[0]?.image).toBe(image);
    }
  });

  it('recreates a listed Vessel that was deleted directly, once it has terminated', async () => {
    const uid = t.sim.state.getVessel('dev', 'lobby-1')?.metadata.uid;
    await callJson(t.sim, `${VESSELS}/lobby-1`, 200, { method: 'DELETE' });
    expect(t.sim.state.getFormation('dev', 'lobby')?.status).toEqual({
      state: 'Degraded',
      reason: 'vessel "lobby-1" is terminating',
    });
    await t.clock.advance(2000);
    const again = t.sim.state.getVessel('dev', 'lobby-1');
    expect(again?.status).toEqual({ state: 'Pending' });
    expect(again?.metadata.uid).not.toBe(uid);
  });
});

describe('orphans (seed rule 1)', () => {
  it('deletes a standalone Vessel created with an owner reference to a Formation that does not list it', async () => {
    const body: Vessel = vesselPayload('sneaky');
    body.metadata.ownerReferences = [
      { apiVersion: 'formation/v1', kind: 'Formation', name: 'lobby', controller: true },
    ];
    const created = await callJson<Vessel>(t.sim, `${VESSELS}`, 201, { body });
    expect(created.status).toEqual({ state: 'Terminating', reason: 'Orphaned' });
    expect(vesselNames(t.sim.state.getFormation('dev', 'lobby'))).toEqual(['lobby-1', 'lobby-2']);
    await t.clock.advance(2000);
    await callJson(t.sim, `${VESSELS}/sneaky`, 404);
  });

  it('also deletes one whose owner Formation does not exist', async () => {
    const body: Vessel = vesselPayload('lost');
    body.metadata.ownerReferences = [{ kind: 'Formation', name: 'ghost' }];
    const created = await callJson<Vessel>(t.sim, VESSELS, 201, { body });
    expect(created.status).toEqual({ state: 'Terminating', reason: 'Orphaned' });
  });
});

describe('Formation create', () => {
  const formation = (name: string, vessels: FormationVessel[]) => ({
    apiVersion: 'formation/v1',
    kind: 'Formation',
    metadata: { name, environment: 'dev' },
    spec: {
      template: {
        spec: {
          containers: [{ name: 'game-server', branch: 'dev', image: img('dev', 'game-server', '1.0.0') }],
        },
      },
      vessels,
    },
  });

  it('creates a Formation and its Vessels; an unknown region gives Error and a Degraded Formation', async () => {
    const created = await callJson<Formation>(t.sim, FORMATIONS, 201, {
      body: formation('arena', [
        { name: 'arena-1', region: 'eu-central' },
        { name: 'arena-2', region: 'mars' },
      ]),
    });
    expect(created.status).toEqual({ state: 'Degraded', reason: 'vessel "arena-2": No suitable site found' });
    expect(t.sim.state.getVessel('dev', 'arena-1')?.status).toEqual({ state: 'Pending' });
    expect(t.sim.state.getVessel('dev', 'arena-2')?.status).toEqual({
      state: 'Error',
      reason: 'No suitable site found',
    });
    const list = await callJson<List<Formation>>(t.sim, FORMATIONS, 200);
    expect(list.items.map((f) => f.metadata.name)).toEqual(['arena', 'lobby']);
  });

  it('answers 409 for a taken name and 422 for Vessels without a template', async () => {
    await callJson(t.sim, FORMATIONS, 409, { body: formation('lobby', []) });
    const body: Formation = formation('bare', [{ name: 'b-1', region: 'eu-central' }]);
    delete body.spec.template;
    const res = await callJson<StatusBody>(t.sim, FORMATIONS, 422, { body });
    expect(res.message).toContain('spec.template');
  });

  it('marks a Formation Degraded when a listed name belongs to a standalone Vessel', async () => {
    await callJson(t.sim, VESSELS, 201, { body: vesselPayload('taken') });
    const created = await callJson<Formation>(t.sim, FORMATIONS, 201, {
      body: formation('f', [{ name: 'taken', region: 'eu-central' }]),
    });
    expect(created.status?.state).toBe('Degraded');
    expect(t.sim.state.getVessel('dev', 'taken')?.metadata.ownerReferences).toBeUndefined();
  });
});

it('answers 405 for a method the route does not have', async () => {
  const res = await call(t.sim, LOBBY, { method: 'DELETE' });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('GET, PATCH');
});
