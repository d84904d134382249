/**
 * Armadas, ArmadaSets, ImageUpdaters and Environments in the client: paths,
 * liberal reads of the undocumented status counts, and the guarded writes
 * that change one distribution entry or one container image only: merge
 * patches, as the provider sends them, guarded by the revision read.
 */
import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { type Armada, type ArmadaSet, replicaCounts } from '../../src/api-shapes/armada-resources.js';
import {
  ArmadaMovedError,
  ConcurrentModificationError,
  ContainerNotInTemplateError,
  RegionNotInArmadaSetError,
  RegionTypeNotInDistributionError,
} from '../../src/gamefabric/client.js';
import { api, BASE, exactly, status, testClient, useNock } from './helpers.js';

const ARMADAS = '/api/armada/v1/environments/dev/armadas';
const SETS = '/api/armada/v1/environments/dev/armadasets';

useNock();

function armada(name = 'duel'): Armada {
  return {
    apiVersion: 'armada/v1',
    kind: 'Armada',
    metadata: { name, environment: 'dev', revision: '7' },
    spec: {
      region: 'eu-central',
      distribution: [
        { name: 'baremetal', minReplicas: 2, maxReplicas: 10, bufferSize: 2 },
        { name: 'cloud', minReplicas: 0, maxReplicas: 5, bufferSize: 1 },
      ],
      template: { spec: { containers: [{ name: 'game-server', branch: 'dev', image: 'img-1' }] } },
    },
  };
}

function armadaSet(): ArmadaSet {
  return {
    apiVersion: 'armada/v1',
    kind: 'ArmadaSet',
    metadata: { name: 'arena', environment: 'dev', revision: '9' },
    spec: {
      armadas: [
        {
          region: 'eu-central',
          distribution: [{ name: 'baremetal', minReplicas: 1, maxReplicas: 4, bufferSize: 1 }],
        },
        {
          region: 'us-east',
          distribution: [{ name: 'cloud', minReplicas: 1, maxReplicas: 4, bufferSize: 1 }],
        },
      ],
      template: { spec: { containers: [{ name: 'game-server', branch: 'dev', image: 'img-1' }] } },
    },
  };
}

function patchApi() {
  return nock(BASE, { reqheaders: { 'content-type': 'application/merge-patch+json' } });
}

describe('reads', () => {
  it('lists and gets Armadas and ArmadaSets on the armada group paths', async () => {
    api()
      .get(ARMADAS)
      .reply(200, { items: [armada()] });
    api().get(`${ARMADAS}/duel`).reply(200, armada());
    api()
      .get(SETS)
      .reply(200, { items: [armadaSet()] });
    api().get(`${SETS}/arena`).reply(200, armadaSet());
    const { client } = testClient();
    await expect(client.listArmadas('dev')).resolves.toHaveLength(1);
    expect((await client.getArmada('dev', 'duel')).spec.distribution.map((d) => d.name)).toEqual([
      'baremetal',
      'cloud',
    ]);
    await expect(client.listArmadaSets('dev')).resolves.toHaveLength(1);
    expect((await client.getArmadaSet('dev', 'arena')).spec.armadas.map((a) => a.region)).toEqual([
      'eu-central',
      'us-east',
    ]);
  });

  it('reads status counts liberally: numbers, numeric strings, other names, or none at all', async () => {
    const body = {
      ...armada(),
      status: {
        state: 'Synced',
        replicas: '5',
        ready: 3,
        allocatedReplicas: 'many',
        regionTypes: [{ name: 'baremetal', currentReplicas: 4, readyReplicas: 2, allocated: 1 }],
      },
    };
    api().get(`${ARMADAS}/duel`).reply(200, body);
    api()
      .get(`${ARMADAS}/bare`)
      .reply(200, { ...armada('bare'), spec: { ...armada().spec, distribution: undefined } });
    const { client } = testClient();
    const read = await client.getArmada('dev', 'duel');
    const counts = replicaCounts(read.status);
    expect(counts.total).toEqual({ replicas: 5, readyReplicas: 3 });
    expect(counts.byType.get('baremetal')).toEqual({ replicas: 4, readyReplicas: 2, allocatedReplicas: 1 });
    expect(replicaCounts(undefined)).toEqual({ total: {}, byType: new Map() });
    // A missing distribution reads as none.
    expect((await client.getArmada('dev', 'bare')).spec.distribution).toEqual([]);
  });

  it('lists ImageUpdaters and Environments', async () => {
    api()
      .get('/api/container/v1/environments/prod/imageupdaters')
      .reply(200, {
        items: [
          {
            metadata: { name: 'arena-updater', environment: 'prod' },
            spec: {
              branch: 'prod',
              imageName: 'game-server',
              targetRef: { kind: 'ArmadaSet', name: 'arena' },
            },
          },
        ],
      });
    api()
      .get('/api/core/v1/environments')
      .reply(200, { items: [{ metadata: { name: 'dev' }, spec: { displayName: 'Development' } }] });
    const { client } = testClient();
    const [updater] = await client.listImageUpdaters('prod');
    expect(updater?.spec.targetRef).toEqual({ kind: 'ArmadaSet', name: 'arena' });
    const [env] = await client.listEnvironments();
    expect(env?.spec?.displayName).toBe('Development');
  });
});

describe('setDistribution', () => {
  const target = { kind: 'Armada' as const, env: 'dev', name: 'duel', type: 'cloud' };
  const cloud = { minReplicas: 0, maxReplicas: 5, bufferSize: 1 };

  it('sends a merge patch of the distribution as read with that entry changed, guarded by the revision', async () => {
    api().get(`${ARMADAS}/duel`).reply(200, armada());
    const scope = patchApi()
      .patch(
        `${ARMADAS}/duel`,
        exactly({
          metadata: { revision: '7' },
          spec: {
            distribution: [
              { name: 'baremetal', minReplicas: 2, maxReplicas: 10, bufferSize: 2 },
              { name: 'cloud', minReplicas: 0, maxReplicas: 8, bufferSize: 2 },
            ],
          },
        }),
      )
      .reply(200, armada());
    const { client } = testClient();
    await client.setDistribution(target, cloud, { maxReplicas: 8, bufferSize: 2 });
    scope.done();
  });

  it('sends the regions of an ArmadaSet as read with that region changed', async () => {
    api().get(`${SETS}/arena`).reply(200, armadaSet());
    const scope = patchApi()
      .patch(
        `${SETS}/arena`,
        exactly({
          metadata: { revision: '9' },
          spec: {
            armadas: [
              {
                region: 'eu-central',
                distribution: [{ name: 'baremetal', minReplicas: 1, maxReplicas: 4, bufferSize: 1 }],
              },
              {
                region: 'us-east',
                distribution: [{ name: 'cloud', minReplicas: 2, maxReplicas: 4, bufferSize: 1 }],
              },
            ],
          },
        }),
      )
      .reply(200, armadaSet());
    const { client } = testClient();
    await client.setDistribution(
      { kind: 'ArmadaSet', env: 'dev', name: 'arena', region: 'us-east', type: 'cloud' },
      { minReplicas: 1, maxReplicas: 4, bufferSize: 1 },
      { minReplicas: 2 },
    );
    scope.done();
  });

  it('writes nothing when the entry no longer holds what the preview showed', async () => {
    api().get(`${ARMADAS}/duel`).reply(200, armada());
    const { client } = testClient();
    const err = await client
      .setDistribution(target, { minReplicas: 0, maxReplicas: 6, bufferSize: 1 }, { maxReplicas: 8 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArmadaMovedError);
    expect(String(err)).toContain('expected min 0, buffer 1, max 6, now min 0, buffer 1, max 5');
  });

  it('names the types and regions there are', async () => {
    api().get(`${ARMADAS}/duel`).reply(200, armada());
    api().get(`${SETS}/arena`).reply(200, armadaSet());
    const { client } = testClient();
    const noType = await client
      .setDistribution({ ...target, type: 'gpu' }, cloud, { maxReplicas: 1 })
      .catch((e: unknown) => e);
    expect(noType).toBeInstanceOf(RegionTypeNotInDistributionError);
    expect(String(noType)).toContain('its types: baremetal, cloud');
    const noRegion = await client
      .setDistribution(
        { kind: 'ArmadaSet', env: 'dev', name: 'arena', region: 'ap', type: 'cloud' },
        cloud,
        {},
      )
      .catch((e: unknown) => e);
    expect(noRegion).toBeInstanceOf(RegionNotInArmadaSetError);
  });

  it('re-reads after a 409 Conflict and patches again on the new revision', async () => {
    api().get(`${ARMADAS}/duel`).reply(200, armada());
    api()
      .get(`${ARMADAS}/duel`)
      .reply(200, { ...armada(), metadata: { name: 'duel', environment: 'dev', revision: '8' } });
    patchApi()
      .patch(`${ARMADAS}/duel`, (b: { metadata?: { revision?: string } }) => b.metadata?.revision === '7')
      .reply(409, status(409, 'Conflict', 'the object has been modified'));
    const scope = patchApi()
      .patch(`${ARMADAS}/duel`, (b: { metadata?: { revision?: string } }) => b.metadata?.revision === '8')
      .reply(200, armada());
    const { client } = testClient();
    const { attempts } = await client.setDistribution(target, cloud, { maxReplicas: 8 });
    expect(attempts).toBe(2);
    scope.done();
  });

  // That GameFabric checks `metadata.revision` on a merge patch is inferred (Kubernetes' resourceVersion).
  // If it does, a status write between our read and our patch moves the revision with the spec unchanged:
  // nothing we send is stale, so the patch is sent again on the new revision and no concurrent change is claimed.
  const rev = (revision: string) => ({
    ...armada(),
    metadata: { name: 'duel', environment: 'dev', revision },
  });
  const onRevision = (revision: string) => (b: { metadata?: { revision?: string } }) =>
    b.metadata?.revision === revision;

  it('sends the patch again on the new revision when only the revision moved, even with no retries to spare', async () => {
    api().get(`${ARMADAS}/duel`).reply(200, rev('7'));
    api().get(`${ARMADAS}/duel`).reply(200, rev('8'));
    patchApi()
      .patch(`${ARMADAS}/duel`, onRevision('7'))
      .reply(409, status(409, 'Conflict', 'the object has been modified'));
    const scope = patchApi().patch(`${ARMADAS}/duel`, onRevision('8')).reply(200, armada());
    const { client } = testClient();
    const done = await client.setDistribution(target, cloud, { maxReplicas: 8 }, { maxAttempts: 1 });
    expect(done).toMatchObject({ attempts: 2, revisionOnlyRetries: 1 });
    scope.done();
  });

  it('applies after status is written between every read and patch, more often than the retry budget', async () => {
    for (let r = 10; r <= 16; r++)
      api()
        .get(`${ARMADAS}/duel`)
        .reply(200, rev(String(r)));
    for (let r = 10; r <= 15; r++) {
      patchApi()
        .patch(`${ARMADAS}/duel`, onRevision(String(r)))
        .reply(409, status(409, 'Conflict', 'the object has been modified'));
    }
    const scope = patchApi().patch(`${ARMADAS}/duel`, onRevision('16')).reply(200, armada());
    const { client } = testClient();
    const done = await client.setDistribution(target, cloud, { maxReplicas: 8 });
    expect(done).toMatchObject({ attempts: 7, revisionOnlyRetries: 6 });
    scope.done();
  });

  it('counts a conflict whose re-read shows another part of the sent spec changed as a concurrent change', async () => {
    const moved = rev('8');
    moved.spec.distribution[0] = { name: 'baremetal', minReplicas: 3, maxReplicas: 10, bufferSize: 2 };
    api().get(`${ARMADAS}/duel`).reply(200, rev('7'));
    api().get(`${ARMADAS}/duel`).reply(200, moved);
    patchApi()
      .patch(`${ARMADAS}/duel`, onRevision('7'))
      .reply(409, status(409, 'Conflict', 'the object has been modified'));
    const scope = patchApi()
      .patch(`${ARMADAS}/duel`, (b: { metadata?: { revision?: string }; spec?: Armada['spec'] }) => {
        // The other writer's baremetal change is carried, not overwritten (the list is sent whole).
        return b.metadata?.revision === '8' && b.spec?.distribution[0]?.minReplicas === 3;
      })
      .reply(200, armada());
    const { client } = testClient();
    const done = await client.setDistribution(target, cloud, { maxReplicas: 8 });
    expect(done).toMatchObject({ attempts: 2, revisionOnlyRetries: 0 });
    scope.done();
    // With no retries to spare, the same conflict gives up as a concurrent change (after the read that shows it).
    api().get(`${ARMADAS}/duel`).reply(200, rev('7'));
    api().get(`${ARMADAS}/duel`).reply(200, moved);
    patchApi()
      .patch(`${ARMADAS}/duel`, onRevision('7'))
      .reply(409, status(409, 'Conflict', 'the object has been modified'));
    const err = await client
      .setDistribution(target, cloud, { maxReplicas: 8 }, { maxAttempts: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrentModificationError);
  });

  it('passes a refusal on when neither the entry nor the revision moved', async () => {
    const moving = armada();
    api().get(`${ARMADAS}/duel`).times(2).reply(200, moving);
    patchApi()
      .patch(`${ARMADAS}/duel`)
      .times(2)
      .reply(422, status(422, 'Invalid', 'test operation failed'));
    const { client } = testClient();
    // Same entry on both reads: the failure is not a concurrent change, so it is passed on as it is.
    const err = await client
      .setDistribution(target, cloud, { maxReplicas: 8 }, { maxAttempts: 2 })
      .catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ConcurrentModificationError);
    expect((err as { status?: number }).status).toBe(422);
  });
});

describe('setTemplateImage', () => {
  it('sends the containers as read with that image replaced, guarded by the revision', async () => {
    api().get(`${ARMADAS}/duel`).reply(200, armada());
    const scope = patchApi()
      .patch(
        `${ARMADAS}/duel`,
        exactly({
          metadata: { revision: '7' },
          spec: {
            template: { spec: { containers: [{ name: 'game-server', branch: 'dev', image: 'img-2' }] } },
          },
        }),
      )
      .reply(200, armada());
    const { client } = testClient();
    await client.setTemplateImage(
      { kind: 'Armada', env: 'dev', name: 'duel', container: 'game-server' },
      'img-1',
      'img-2',
    );
    scope.done();
  });

  it('refuses an unknown container and an image that moved', async () => {
    api().get(`${ARMADAS}/duel`).times(2).reply(200, armada());
    const { client } = testClient();
    const t = { kind: 'Armada' as const, env: 'dev', name: 'duel', container: 'sidecar' };
    await expect(client.setTemplateImage(t, 'img-1', 'img-2')).rejects.toBeInstanceOf(
      ContainerNotInTemplateError,
    );
    await expect(
      client.setTemplateImage({ ...t, container: 'game-server' }, 'img-0', 'img-2'),
    ).rejects.toBeInstanceOf(ArmadaMovedError);
  });
});
