import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { JsonPatchOperation } from '../../src/api-shapes/resources.js';
import { ConcurrentModificationError, RegionTypeNotFoundError } from '../../src/gamefabric/client.js';
import { api, BASE, exactly, region, status, testClient, useNock } from './helpers.js';

const REGIONS = '/api/core/v1/environments/dev/regions';
const EU = `${REGIONS}/eu`;

useNock();

function patchApi() {
  return nock(BASE, { reqheaders: { 'content-type': 'application/json-patch+json' } });
}

const baremetal = {
  name: 'baremetal',
  locations: ['fra-1'],
  template: { scheduling: 'Distributed' as const },
};
const cloud = { name: 'cloud', locations: ['gcp-europe-west1'] };

describe('Regions: create (endpoint 9), list, get, patch', () => {
  it('creates a Region with kind, apiVersion core/v1 and the environment filled in', async () => {
    const expected = {
      apiVersion: 'core/v1',
      kind: 'Region',
      metadata: { name: 'eu', environment: 'dev' },
      spec: { displayName: 'Europe', types: [baremetal] },
    };
    const scope = nock(BASE, { reqheaders: { 'content-type': 'application/json' } })
      .post(REGIONS, expected)
      .reply(201, expected);
    const { client } = testClient();
    const created = await client.createRegion('dev', {
      metadata: { name: 'eu' },
      spec: { displayName: 'Europe', types: [baremetal] },
    });
    expect(created.spec.types[0]?.template?.scheduling).toBe('Distributed');
    scope.done();
  });

  it('lists and gets Regions', async () => {
    api()
      .get(REGIONS)
      .reply(200, { items: [region('eu', [cloud])] });
    api()
      .get(EU)
      .reply(200, region('eu', [cloud, baremetal]));
    const { client } = testClient();
    await expect(client.listRegions('dev')).resolves.toHaveLength(1);
    const eu = await client.getRegion('dev', 'eu');
    expect(eu.spec.types.map((t) => t.name)).toEqual(['cloud', 'baremetal']);
  });

  it('keeps a scheduling value newer than the bot as it is (liberal reads, issue 12.1)', async () => {
    api()
      .get(EU)
      .reply(200, region('eu', [{ ...cloud, template: { scheduling: 'Random' } }]));
    const { client } = testClient();
    const eu = await client.getRegion('dev', 'eu');
    expect(eu.spec.types[0]?.template?.scheduling).toBe('Random');
  });

  it('patches with application/json-patch+json', async () => {
    const ops: JsonPatchOperation[] = [{ op: 'replace', path: '/spec/displayName', value: 'EU' }];
    const scope = patchApi()
      .patch(EU, exactly(ops))
      .reply(200, region('eu', [cloud]));
    const { client } = testClient();
    await client.patchRegion('dev', 'eu', ops);
    scope.done();
  });
});

describe('setRegionTypeScheduling', () => {
  it('guards by the type name at its index and sets template.scheduling', async () => {
    api()
      .get(EU)
      .reply(200, region('eu', [cloud, baremetal]));
    const scope = patchApi()
      .patch(EU, [
        { op: 'test', path: '/spec/types/1/name', value: 'baremetal' },
        { op: 'add', path: '/spec/types/1/template/scheduling', value: 'Packed' },
      ])
      .reply(200, region('eu', [cloud, { ...baremetal, template: { scheduling: 'Packed' } }]));
    const { client } = testClient();
    const result = await client.setRegionTypeScheduling('dev', 'eu', 'baremetal', 'Packed');
    expect(result).toMatchObject({ previous: 'Distributed', attempts: 1 });
    expect(result.region.spec.types[1]?.template?.scheduling).toBe('Packed');
    scope.done();
  });

  it('adds a whole template when the type has none, and reports Packed as the previous default', async () => {
    api()
      .get(EU)
      .reply(200, region('eu', [cloud]));
    const scope = patchApi()
      .patch(EU, [
        { op: 'test', path: '/spec/types/0/name', value: 'cloud' },
        { op: 'add', path: '/spec/types/0/template', value: { scheduling: 'Distributed' } },
      ])
      .reply(200, region('eu', [{ ...cloud, template: { scheduling: 'Distributed' } }]));
    const { client } = testClient();
    await expect(client.setRegionTypeScheduling('dev', 'eu', 'cloud', 'Distributed')).resolves.toMatchObject({
      previous: 'Packed',
    });
    scope.done();
  });

  it('keeps other template fields: only scheduling is added', async () => {
    const withEnv = { ...cloud, template: { env: [{ name: 'MODE', value: 'x' }] } };
    api()
      .get(EU)
      .reply(200, region('eu', [withEnv]));
    const scope = patchApi()
      .patch(EU, (ops: JsonPatchOperation[]) => ops[1]?.path === '/spec/types/0/template/scheduling')
      .reply(
        200,
        region('eu', [{ ...withEnv, template: { ...withEnv.template, scheduling: 'Distributed' } }]),
      );
    const { client } = testClient();
    await client.setRegionTypeScheduling('dev', 'eu', 'cloud', 'Distributed');
    scope.done();
  });

  it('throws RegionTypeNotFoundError naming the types there are', async () => {
    api()
      .get(EU)
      .reply(200, region('eu', [cloud, baremetal]));
    const { client } = testClient();
    const error = await client
      .setRegionTypeScheduling('dev', 'eu', 'edge', 'Packed')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegionTypeNotFoundError);
    expect((error as Error).message).toBe('region eu has no type edge (types: cloud, baremetal)');
  });

  it('re-reads after a failed test and uses the type’s new index', async () => {
    api()
      .get(EU)
      .reply(200, region('eu', [cloud, baremetal]));
    patchApi()
      .patch(EU, (ops: JsonPatchOperation[]) => ops[0]?.path === '/spec/types/1/name')
      .reply(409, status(409, 'Conflict', 'test failed'));
    api()
      .get(EU)
      .reply(200, region('eu', [baremetal]));
    const second = patchApi()
      .patch(EU, [
        { op: 'test', path: '/spec/types/0/name', value: 'baremetal' },
        { op: 'add', path: '/spec/types/0/template/scheduling', value: 'Packed' },
      ])
      .reply(200, region('eu', [{ ...baremetal, template: { scheduling: 'Packed' } }]));
    const { client } = testClient();
    await expect(client.setRegionTypeScheduling('dev', 'eu', 'baremetal', 'Packed')).resolves.toMatchObject({
      attempts: 2,
    });
    second.done();
  });

  it('gives up after maxAttempts rounds of failed tests', async () => {
    api()
      .get(EU)
      .reply(200, region('eu', [cloud, baremetal]));
    patchApi()
      .patch(EU)
      .reply(422, status(422, 'Invalid', 'test failed'));
    api()
      .get(EU)
      .reply(200, region('eu', [baremetal]));
    patchApi()
      .patch(EU)
      .reply(422, status(422, 'Invalid', 'test failed'));
    const { client } = testClient();
    await expect(
      client.setRegionTypeScheduling('dev', 'eu', 'baremetal', 'Packed', { maxAttempts: 2 }),
    ).rejects.toBeInstanceOf(ConcurrentModificationError);
  });

  it('refuses an unknown strategy before any call', async () => {
    const { client } = testClient();
    await expect(client.setRegionTypeScheduling('dev', 'eu', 'cloud', 'Spread' as 'Packed')).rejects.toThrow(
      'scheduling must be one of Packed, Distributed (got Spread)',
    );
  });
});
