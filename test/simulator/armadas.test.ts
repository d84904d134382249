/**
 * The simulated armada controller: replicas per region type within
 * min/max/buffer, the replica rules on writes, rolling updates that take
 * simulated time in waves of maxSurge + maxUnavailable, Degraded with a reason
 * for a missing image, ArmadaSets owning one Armada per region, ImageUpdaters
 * rolling their target out when a matching image is promoted, faults on the
 * new paths, and the environment list.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Armada, ArmadaSet, Environment, ImageUpdater } from '../../src/api-shapes/armada-resources.js';
import { callJson, img, type List, REGIONS, type StatusBody, startTestSim, type TestSim } from './helpers.js';

/** The simulator's fleet status: the counts it chose names for (docs/gamefabric-compatibility.md). */
interface SimFleetStatus {
  state?: string;
  reason?: string;
  regionTypes: Record<string, unknown>[];
}

const ARMADAS = '/api/armada/v1/environments/dev/armadas';
const SETS = '/api/armada/v1/environments/dev/armadasets';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim({ stepMs: 1000 });
});
afterEach(() => t.sim.stop());

const jsonPatch = (ops: unknown[]) => ({
  method: 'PATCH',
  body: ops,
  contentType: 'application/json-patch+json',
});

describe('demo data and counts', () => {
  it('keeps min(max, max(min, allocated + buffer)) servers per region type, half the minimum allocated', async () => {
    const duel = await callJson<Armada>(t.sim, `${ARMADAS}/duel`, 200);
    expect(duel.status).toMatchObject({
      state: 'Synced',
      replicas: 5,
      readyReplicas: 4,
      allocatedReplicas: 1,
      updatedReplicas: 5,
      regionTypes: [
        { name: 'baremetal', replicas: 3, readyReplicas: 2, allocatedReplicas: 1 },
        { name: 'cloud', replicas: 2, readyReplicas: 2, allocatedReplicas: 0 },
      ],
    });
  });

  it('runs one owned Armada per region of an ArmadaSet and sums their counts', async () => {
    const list = await callJson<List<Armada>>(t.sim, ARMADAS, 200);
    expect(list.items.map((a) => a.metadata.name)).toEqual(['arena-eu-central', 'arena-us-west', 'duel']);
    const eu = list.items[0];
    expect(eu?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'ArmadaSet', name: 'arena' }),
    ]);
    expect(eu?.spec.region).toBe('eu-central');
    const set = await callJson<ArmadaSet>(t.sim, `${SETS}/arena`, 200);
    expect(set.status).toMatchObject({ state: 'Synced', replicas: 4 + 2, allocatedReplicas: 2 + 1 });
  });

  it('lists environments with display names', async () => {
    const envs = await callJson<List<Environment>>(t.sim, '/api/core/v1/environments', 200);
    expect(envs.items.map((e) => e.metadata.name)).toEqual(['dev', 'prod']);
  });
});

describe('replica rules', () => {
  const cases: [string, Record<string, number>, string][] = [
    ['max below min', { minReplicas: 5, maxReplicas: 3, bufferSize: 1 }, 'max (3) must be >= min (5)'],
    ['max below buffer', { minReplicas: 0, maxReplicas: 2, bufferSize: 3 }, 'max (2) must be >= buffer (3)'],
    ['no buffer with max', { minReplicas: 0, maxReplicas: 2, bufferSize: 0 }, 'buffer must be > 0'],
    ['min below buffer', { minReplicas: 1, maxReplicas: 5, bufferSize: 2 }, 'min (1) must be >= buffer (2)'],
    [
      'a negative value',
      { minReplicas: -1, maxReplicas: 5, bufferSize: 1 },
      'min must be a whole number from 0 to 2147483647 (got -1)',
    ],
  ];
  it.each(cases)('refuses %s with a 422 naming the rule, changing nothing', async (_label, values, rule) => {
    const res = await callJson<StatusBody>(
      t.sim,
      `${ARMADAS}/duel`,
      422,
      jsonPatch([{ op: 'replace', path: '/spec/distribution/0', value: { name: 'baremetal', ...values } }]),
    );
    expect(res.message).toContain(rule);
    expect(res.message).toContain('spec.distribution[0]');
    expect(t.sim.state.getArmada('dev', 'duel')?.spec.distribution[0]?.maxReplicas).toBe(10);
  });

  it('accepts 0, 0, 0 (a drain): unallocated servers stop, allocated ones keep running', async () => {
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([
        {
          op: 'replace',
          path: '/spec/distribution/0',
          value: { name: 'baremetal', minReplicas: 0, maxReplicas: 0, bufferSize: 0 },
        },
      ]),
    );
    const status = t.sim.state.getArmada('dev', 'duel')?.status as SimFleetStatus | undefined;
    // docs armada-replicas-and-buffer.md "Scaling down": Allocated servers run until they shut down.
    expect(status?.regionTypes[0]).toEqual({
      name: 'baremetal',
      replicas: 1,
      readyReplicas: 0,
      allocatedReplicas: 1,
    });
  });

  it('refuses a region type the region does not have', async () => {
    const res = await callJson<StatusBody>(
      t.sim,
      `${ARMADAS}/duel`,
      422,
      jsonPatch([
        {
          op: 'add',
          path: '/spec/distribution/-',
          value: { name: 'gpu', minReplicas: 0, maxReplicas: 1, bufferSize: 1 },
        },
      ]),
    );
    expect(res.message).toContain('region type "gpu" in region "eu-central"');
  });
});

describe('scaling and rolling updates take simulated time', () => {
  it('new servers start for one step before they are Ready', async () => {
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([{ op: 'replace', path: '/spec/distribution/1/minReplicas', value: 6 }]),
    );
    const cloud = () =>
      (t.sim.state.getArmada('dev', 'duel')?.status as SimFleetStatus | undefined)?.regionTypes[1];
    expect(cloud()).toEqual({ name: 'cloud', replicas: 6, readyReplicas: 2, allocatedReplicas: 0 });
    t.clock.advance(1000);
    expect(cloud()).toEqual({ name: 'cloud', replicas: 6, readyReplicas: 6, allocatedReplicas: 0 });
  });

  it('rolls a new image out in waves of maxSurge + maxUnavailable, two steps each, Synced throughout', async () => {
    // 5 servers, maxSurge 25% (2, rounded up), maxUnavailable 0: waves of 2.
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([
        {
          op: 'replace',
          path: '/spec/template/spec/containers/0/image',
          value: img('dev', 'game-server', '1.1.0'),
        },
      ]),
    );
    const status = () => t.sim.state.getArmada('dev', 'duel')?.status as SimFleetStatus | undefined;
    // A sync state: the configuration reached every Site, however far the servers are replaced.
    expect(status()).toMatchObject({ state: 'Synced', updatedReplicas: 0, replicas: 7 });
    expect(status()?.reason).toBeUndefined();
    t.clock.advance(2000);
    expect(status()).toMatchObject({ state: 'Synced', updatedReplicas: 2 });
    t.clock.advance(2000);
    expect(status()).toMatchObject({ state: 'Synced', updatedReplicas: 4 });
    t.clock.advance(2000);
    expect(status()).toMatchObject({ state: 'Synced', updatedReplicas: 5, replicas: 5 });
  });

  it('waves of one with maxSurge 0 and maxUnavailable 1', async () => {
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([
        {
          op: 'replace',
          path: '/spec/template/spec/strategy/rollingUpdate',
          value: { maxSurge: 0, maxUnavailable: 1 },
        },
        {
          op: 'replace',
          path: '/spec/template/spec/containers/0/image',
          value: img('dev', 'game-server', '1.1.0'),
        },
      ]),
    );
    t.clock.advance(2000 * 4);
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      state: 'Synced',
      updatedReplicas: 4,
    });
    t.clock.advance(2000);
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({ state: 'Synced' });
  });

  it('an image missing from its branch: new servers never Ready, 0 updated, old ones keep running, still Synced', async () => {
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'no-such-image' }]),
    );
    t.clock.advance(20_000);
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      state: 'Synced',
      replicas: 7,
      updatedReplicas: 0,
      readyReplicas: 4,
      allocatedReplicas: 1,
    });
  });

  it('holds a rollout to a build whose servers crash on start: never Ready, 0 updated, not Degraded', async () => {
    const crashing = img('dev', 'game-server', '1.0.0');
    await callJson(t.sim, '/_sim/crashing-images', 200, {
      method: 'POST',
      body: { branch: 'dev', image: crashing, reason: 'exit code 137 (OOMKilled)' },
    });
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: crashing }]),
    );
    t.clock.advance(20_000);
    const held = t.sim.state.getArmada('dev', 'duel')?.status as SimFleetStatus & Record<string, unknown>;
    expect(held).toMatchObject({ state: 'Synced', updatedReplicas: 0, replicas: 7, readyReplicas: 4 });
    expect(held.reason).toBeUndefined();
    // The build is fixed (the crash cleared): the held rollout goes through.
    await callJson(t.sim, '/_sim/crashing-images', 200, {
      method: 'POST',
      body: { branch: 'dev', image: crashing },
    });
    t.clock.advance(20_000);
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      state: 'Synced',
      updatedReplicas: 5,
    });
  });

  it('refuses a container branch that does not exist', async () => {
    const res = await callJson<StatusBody>(
      t.sim,
      `${ARMADAS}/duel`,
      422,
      jsonPatch([{ op: 'replace', path: '/spec/template/spec/containers/0/branch', value: 'nope' }]),
    );
    expect(res.message).toContain('Not found: branch "nope"');
  });
});

describe('sync state from Sites; Recreate; counts absent', () => {
  it('is Degraded with the Site as the reason while a Site of its region is unavailable, Synced again after', async () => {
    const duel = await callJson<Armada>(t.sim, `${ARMADAS}/duel`, 200);
    const region = t.sim.state.getRegion('dev', duel.spec.region);
    const location = region?.spec.types[0]?.locations[0] ?? 'sfo-bm-1';
    await callJson(t.sim, `/_sim/sites/${location}-01`, 200, {
      method: 'POST',
      body: { state: 'Error', reason: 'connection lost' },
    });
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      state: 'Degraded',
      reason: `could not sync to site ${location}-01 (Error: connection lost)`,
    });
    t.sim.setSite(`${location}-01`, undefined);
    expect(t.sim.state.getArmada('dev', 'duel')?.status?.state).toBe('Synced');
  });

  it('Recreate replaces every unallocated server at once: none Ready until the new ones are up', async () => {
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([
        { op: 'replace', path: '/spec/template/spec/strategy', value: { type: 'Recreate' } },
        {
          op: 'replace',
          path: '/spec/template/spec/containers/0/image',
          value: img('dev', 'game-server', '1.1.0'),
        },
      ]),
    );
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      state: 'Synced',
      readyReplicas: 0,
      allocatedReplicas: 1,
      updatedReplicas: 0,
    });
    t.clock.advance(2000);
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      readyReplicas: 4,
      updatedReplicas: 5,
    });
  });

  it('serves only state and reason without counts (fleetCounts false, the default under realShapes)', async () => {
    const bare = await startTestSim({ stepMs: 1000, fleetCounts: false });
    try {
      const duel = await callJson<Armada>(bare.sim, `${ARMADAS}/duel`, 200);
      expect(duel.status).toEqual({ state: 'Synced' });
      const set = await callJson<ArmadaSet>(bare.sim, `${SETS}/arena`, 200);
      expect(set.status).toEqual({ state: 'Synced' });
    } finally {
      await bare.sim.stop();
    }
    const real = await startTestSim({ realShapes: true });
    try {
      const list = await callJson<List<Armada>>(real.sim, ARMADAS, 200);
      for (const a of list.items) expect(Object.keys(a.status ?? {}).sort()).toEqual(['state']);
    } finally {
      await real.sim.stop();
    }
  });
});

describe('terminating a game server (DELETE /api/core/v1/sites/{site}/gameservers/{name})', () => {
  it('stops the server; an allocated one ends its match; the name is not reused; an unknown one is a 404', async () => {
    // dev duel: baremetal in eu-central, first Location fra-bm-1, 3 servers with 1 allocated.
    const list = () =>
      callJson<List<{ metadata: { name: string }; status: { state: string } }>>(
        t.sim,
        '/api/core/v1/sites/fra-bm-1-01/gameservers',
        200,
      );
    const before = (await list()).items.filter((g) => g.metadata.name.startsWith('duel-'));
    expect(before.map((g) => [g.metadata.name, g.status.state])).toEqual([
      ['duel-baremetal-0', 'Allocated'],
      ['duel-baremetal-1', 'Ready'],
      ['duel-baremetal-2', 'Ready'],
    ]);
    await callJson(t.sim, '/api/core/v1/sites/fra-bm-1-01/gameservers/duel-baremetal-0', 200, {
      method: 'DELETE',
    });
    const after = (await list()).items
      .filter((g) => g.metadata.name.startsWith('duel-'))
      .map((g) => g.metadata.name);
    expect(after).not.toContain('duel-baremetal-0');
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({ allocatedReplicas: 0 });
    await callJson(t.sim, '/api/core/v1/sites/fra-bm-1-01/gameservers/duel-baremetal-0', 404, {
      method: 'DELETE',
    });
  });
});

describe('Scale to Zero', () => {
  it('parks lower-priority types at zero while the first has Ready servers, and panics up when it has none', async () => {
    const merge = (body: unknown) => ({ method: 'PATCH', contentType: 'application/merge-patch+json', body });
    await callJson(t.sim, `${ARMADAS}/duel`, 200, merge({ spec: { autoscaling: { scaleToZero: {} } } }));
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      scaleToZero: [
        { regionType: 'baremetal', state: 'ScaledUpLocked' },
        { regionType: 'cloud', state: 'ScaledToZero' },
      ],
      regionTypes: [{ name: 'baremetal' }, { name: 'cloud', replicas: 0 }],
    });
    // No Ready server left in the first type (a build that never starts): the cloud type is scaled up in a panic.
    t.sim.setCrashingImage('dev', img('dev', 'game-server', '1.1.0'), 'exit 1');
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      merge({ spec: { template: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } } }),
    );
    await callJson(t.sim, `${ARMADAS}/duel`, 200, {
      method: 'PATCH',
      contentType: 'application/json-patch+json',
      body: [
        {
          op: 'replace',
          path: '/spec/template/spec/containers/0/image',
          value: img('dev', 'game-server', '1.1.0'),
        },
      ],
    });
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      scaleToZero: [
        { regionType: 'baremetal', state: 'ScaledUpLocked' },
        { regionType: 'cloud', state: 'ScaleUpPanicked' },
      ],
    });
  });
});

describe('Scale to Zero priority', () => {
  // A Region Type's priority is its index in the Region's spec.types (docs architecture/allocators.md:
  // ALLOC_PRIORITY "Index of the Region Type … 0 = first type"; regions-sites-and-locations.md
  // "0 = highest priority"), not its place in an Armada's distribution.
  const merge = (body: unknown) => ({ method: 'PATCH', contentType: 'application/merge-patch+json', body });
  const states = () =>
    (t.sim.state.getArmada('dev', 'duel')?.status as { scaleToZero?: unknown } | undefined)?.scaleToZero;

  it("takes priority from the Region's type order, whatever order the distribution lists them in", async () => {
    const duel = await callJson<Armada>(t.sim, `${ARMADAS}/duel`, 200);
    const reversed = [...duel.spec.distribution].reverse();
    expect(reversed.map((d) => d.name)).toEqual(['cloud', 'baremetal']);
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      merge({ spec: { distribution: reversed, autoscaling: { scaleToZero: {} } } }),
    );
    expect(states()).toEqual([
      { regionType: 'cloud', state: 'ScaledToZero' },
      { regionType: 'baremetal', state: 'ScaledUpLocked' },
    ]);
  });

  it('follows the Region when its types are reordered', async () => {
    await callJson(t.sim, `${ARMADAS}/duel`, 200, merge({ spec: { autoscaling: { scaleToZero: {} } } }));
    const region = await callJson<{ spec: { types: unknown[] } }>(t.sim, `${REGIONS}/eu-central`, 200);
    await callJson(t.sim, `${REGIONS}/eu-central`, 200, {
      method: 'PATCH',
      contentType: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/spec/types', value: [...region.spec.types].reverse() }],
    });
    expect(states()).toEqual([
      { regionType: 'baremetal', state: 'ScaledToZero' },
      { regionType: 'cloud', state: 'ScaledUpLocked' },
    ]);
  });
});

describe('merge patch guarded by the revision', () => {
  it('applies a merge patch carrying the current revision and refuses a stale one with 409 Conflict', async () => {
    const duel = await callJson<Armada>(t.sim, `${ARMADAS}/duel`, 200);
    const revision = duel.metadata.revision;
    const body = (rev: string | undefined, max: number) => ({
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: {
        metadata: { revision: rev },
        spec: {
          distribution: [duel.spec.distribution[0], { ...duel.spec.distribution[1], maxReplicas: max }],
        },
      },
    });
    await callJson(t.sim, `${ARMADAS}/duel`, 200, body(revision, 21));
    const stale = await callJson<StatusBody>(t.sim, `${ARMADAS}/duel`, 409, body(revision, 22));
    expect(stale.reason).toBe('Conflict');
    expect(t.sim.state.getArmada('dev', 'duel')?.spec.distribution[1]?.maxReplicas).toBe(21);
  });

  it('moves the revision, not the spec, when a status write comes first (writeStatusFirst)', async () => {
    const read = await callJson<Armada>(t.sim, `${ARMADAS}/duel`, 200);
    t.sim.setFaults([{ method: 'PATCH', path: `${ARMADAS}/duel`, writeStatusFirst: true, times: 1 }]);
    const patch = {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { revision: read.metadata.revision }, spec: { description: 'renamed' } },
    };
    // The revision read went stale between the read and the patch, with the spec untouched.
    await callJson<StatusBody>(t.sim, `${ARMADAS}/duel`, 409, patch);
    const now = await callJson<Armada>(t.sim, `${ARMADAS}/duel`, 200);
    expect(now.metadata.revision).not.toBe(read.metadata.revision);
    expect(now.spec).toEqual(read.spec);
    // Sent again on the new revision, it applies.
    await callJson(t.sim, `${ARMADAS}/duel`, 200, {
      ...patch,
      body: { ...patch.body, metadata: { revision: now.metadata.revision } },
    });
    expect(t.sim.state.getArmada('dev', 'duel')?.spec.description).toBe('renamed');
  });
});

describe('ArmadaSets', () => {
  it('puts its template and distribution into each owned Armada, which rolls out', async () => {
    await callJson(
      t.sim,
      `${SETS}/arena`,
      200,
      jsonPatch([
        {
          op: 'replace',
          path: '/spec/template/spec/containers/0/image',
          value: img('dev', 'game-server', '1.2.0'),
        },
        { op: 'replace', path: '/spec/armadas/1/distribution/0/maxReplicas', value: 9 },
      ]),
    );
    const us = t.sim.state.getArmada('dev', 'arena-us-west');
    expect(us?.spec.template.spec.containers[0]?.image).toBe(img('dev', 'game-server', '1.2.0'));
    expect(us?.spec.distribution[0]?.maxReplicas).toBe(9);
    expect(t.sim.state.getArmadaSet('dev', 'arena')?.status).toMatchObject({
      state: 'Synced',
      updatedReplicas: 0,
    });
    t.clock.advance(20_000);
    expect(t.sim.state.getArmadaSet('dev', 'arena')?.status?.state).toBe('Synced');
  });

  it('puts an owned Armada back when it is patched directly', async () => {
    await callJson(
      t.sim,
      `${ARMADAS}/arena-us-west`,
      200,
      jsonPatch([{ op: 'replace', path: '/spec/distribution/0/maxReplicas', value: 3 }]),
    );
    expect(t.sim.state.getArmada('dev', 'arena-us-west')?.spec.distribution[0]?.maxReplicas).toBe(8);
  });

  it('deletes the Armada of a region it no longer lists', async () => {
    await callJson(t.sim, `${SETS}/arena`, 200, jsonPatch([{ op: 'remove', path: '/spec/armadas/1' }]));
    expect(t.sim.state.getArmada('dev', 'arena-us-west')).toBeUndefined();
    expect(t.sim.state.getArmada('dev', 'arena-eu-central')).toBeDefined();
  });
});

describe('ImageUpdaters', () => {
  it('lists the demo updater in prod', async () => {
    const list = await callJson<List<ImageUpdater>>(
      t.sim,
      '/api/container/v1/environments/prod/imageupdaters',
      200,
    );
    expect(list.items[0]?.spec).toEqual({
      branch: 'prod',
      imageName: 'game-server',
      targetRef: { apiVersion: 'armada/v1', kind: 'ArmadaSet', name: 'arena' },
    });
  });

  it('rolls its target out when a matching image is promoted into its branch', async () => {
    const before = t.sim.state.getArmadaSet('prod', 'arena');
    expect(before?.spec.template.spec.containers[0]?.image).toBe(img('prod', 'game-server', '1.0.0'));
    await callJson(t.sim, '/api/container/v1/imagepromotions/scopes/prod', 201, {
      body: {
        apiVersion: 'container/v1',
        kind: 'ImagePromotion',
        metadata: { name: 'p-1', branch: 'prod' },
        spec: { branch: 'dev', imageName: img('dev', 'game-server', '1.2.0') },
      },
    });
    const after = t.sim.state.getArmadaSet('prod', 'arena');
    expect(after?.spec.template.spec.containers[0]?.image).toBe(img('prod', 'game-server', '1.2.0'));
    expect(after?.status?.state).toBe('Synced');
    expect(t.sim.state.getArmada('prod', 'arena-eu-central')?.spec.template.spec.containers[0]?.image).toBe(
      img('prod', 'game-server', '1.2.0'),
    );
    // The standalone Armada is no target: untouched.
    expect(t.sim.state.getArmada('prod', 'duel')?.spec.template.spec.containers[0]?.image).toBe(
      img('prod', 'game-server', '1.0.0'),
    );
    t.clock.advance(20_000);
    expect(t.sim.state.getArmadaSet('prod', 'arena')?.status?.state).toBe('Synced');
  });

  it('does not roll out again for an image it has seen, nor undo a manual image', async () => {
    await callJson(
      t.sim,
      '/api/armada/v1/environments/prod/armadasets/arena',
      200,
      jsonPatch([
        {
          op: 'replace',
          path: '/spec/template/spec/containers/0/image',
          value: img('prod', 'game-server', '1.0.0'),
        },
      ]),
    );
    t.clock.advance(1000);
    expect(t.sim.state.getArmadaSet('prod', 'arena')?.spec.template.spec.containers[0]?.image).toBe(
      img('prod', 'game-server', '1.0.0'),
    );
  });
});

describe('faults on the new paths', () => {
  it('refuses a PATCH of an Armada with the injected status and changes nothing', async () => {
    t.sim.setFaults([
      { method: 'PATCH', path: '/api/armada/v1/environments/*/armadas/*', status: 503, times: 1 },
    ]);
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      503,
      jsonPatch([{ op: 'replace', path: '/spec/distribution/0/maxReplicas', value: 12 }]),
    );
    expect(t.sim.state.getArmada('dev', 'duel')?.spec.distribution[0]?.maxReplicas).toBe(10);
    await callJson(
      t.sim,
      `${ARMADAS}/duel`,
      200,
      jsonPatch([{ op: 'replace', path: '/spec/distribution/0/maxReplicas', value: 12 }]),
    );
  });
});
