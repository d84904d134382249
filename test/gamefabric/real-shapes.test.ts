/**
 * Reads must survive what the real service returns (issue 12.1): Passthrough
 * ports without containerPort/protocol, port policies newer than the seed, a
 * Region Type without a template or with an empty scheduling. Unknown fields
 * stay on the parsed object.
 */
import { describe, expect, it } from '@jest/globals';
import { schedulingOf } from '../../src/api-shapes/resources.js';
import { api, testClient, useNock } from './helpers.js';

useNock();

const passthroughVessel = {
  apiVersion: 'formation/v1',
  kind: 'Vessel',
  metadata: { name: 'pt-1', environment: 'dev' },
  spec: {
    region: 'eu',
    template: {
      spec: {
        containers: [
          {
            name: 'game-server',
            image: 'gs-abc',
            ports: [
              { name: 'game', policy: 'Passthrough' },
              { name: 'metrics', policy: 'Metric', containerPort: 9090, protocol: 'TCP', path: '/m' },
            ],
            healthChecks: { liveness: true },
          },
        ],
      },
    },
  },
  status: { state: 'Running' },
};

describe('liberal reads', () => {
  it('lists vessels whose ports lack containerPort/protocol or use an unknown policy, keeping unknown fields', async () => {
    api()
      .get('/api/formation/v1/environments/dev/vessels')
      .reply(200, { items: [passthroughVessel] });
    const { client } = testClient();
    const [v] = await client.listVessels('dev');
    const ports = v?.spec.template.spec.containers[0]?.ports ?? [];
    expect(ports[0]).toEqual({ name: 'game', policy: 'Passthrough' });
    expect(ports[1]).toMatchObject({ policy: 'Metric', path: '/m' });
    expect(v?.spec.template.spec.containers[0]).toHaveProperty('healthChecks');
  });

  it('reads a Region whose type has no template, an empty scheduling or an unknown one', async () => {
    api()
      .get('/api/core/v1/environments/dev/regions/eu')
      .reply(200, {
        apiVersion: 'core/v1',
        kind: 'Region',
        metadata: { name: 'eu', environment: 'dev' },
        spec: {
          types: [
            { name: 'bm', locations: ['fra-1'] },
            { name: 'cloud', locations: ['ams-1'], template: { scheduling: '' } },
            { name: 'edge', locations: ['lon-1'], template: { scheduling: 'Balanced' } },
          ],
          allocator: 'default', // a string on the real API
        },
      });
    const { client } = testClient();
    const region = await client.getRegion('dev', 'eu');
    expect(region.spec.types.map(schedulingOf)).toEqual(['Packed', 'Packed', 'Balanced']);
    expect(region.spec).toHaveProperty('allocator', 'default');
  });

  it("reads a Formation whose override entries have the provider's shape: no name, command and env", async () => {
    const entry = {
      name: 'squad-1',
      region: 'eu',
      override: { containers: [{ command: ['/srv'], args: ['--x'], env: [{ name: 'A', value: '1' }] }] },
    };
    api()
      .get('/api/formation/v1/environments/dev/formations/squad')
      .reply(200, { metadata: { name: 'squad' }, spec: { vessels: [entry] } });
    const { client } = testClient();
    const formation = await client.getFormation('dev', 'squad');
    expect(formation.spec.vessels[0]).toEqual(entry);
  });
});

describe('exact request shapes (issue 12)', () => {
  const IMAGES = '/api/container/v1/images/scopes/dev';
  const image = (name: string, createdTimestamp?: string) => ({
    metadata: { name, ...(createdTimestamp ? { createdTimestamp } : {}) },
    spec: { image: 'gs', tag: '1.0' },
  });

  it('picks the newest of several Images for one image:tag by createdTimestamp, like the provider', async () => {
    api()
      .get(IMAGES)
      .query({ fieldSelector: 'spec.image=gs,spec.tag=1.0' })
      .reply(200, {
        items: [image('gs-a', '2025-01-01T00:00:00Z'), image('gs-b', '2025-03-01T00:00:00Z'), image('gs-c')],
      });
    const { client } = testClient();
    expect((await client.findImage('dev', 'gs', '1.0')).metadata.name).toBe('gs-b');
  });

  it('lists branches at /api/container/v1/branches', async () => {
    api()
      .get('/api/container/v1/branches')
      .reply(200, {
        items: [{ metadata: { name: 'prod' }, spec: { displayName: 'Production' } }],
      });
    const { client } = testClient();
    expect(await client.listBranches()).toEqual([
      { metadata: { name: 'prod' }, spec: { displayName: 'Production' } },
    ]);
  });

  it('retries a refused Vessel apiVersion once with the other and remembers it', async () => {
    const VESSELS = '/api/formation/v1/environments/dev/vessels';
    const vessel = {
      metadata: { name: 'v1' },
      spec: { region: 'eu', template: { spec: { containers: [{ name: 'gs' }] } } },
    };
    const created = (apiVersion: string) => ({ ...vessel, apiVersion, kind: 'Vessel' });
    api()
      .post(VESSELS, (body) => body.apiVersion === 'formation/v1beta1')
      .reply(400, {
        kind: 'Status',
        status: 'Failure',
        reason: 'BadRequest',
        code: 400,
        message: 'no kind "Vessel" is registered for version "formation/v1beta1" in scheme',
      });
    const second = api()
      .post(VESSELS, (body) => body.apiVersion === 'formation/v1' && body.kind === 'Vessel')
      .twice()
      .reply(201, created('formation/v1'));
    const { client } = testClient();
    await client.createVessel('dev', vessel);
    await client.createVessel('dev', { ...vessel, metadata: { name: 'v2' } });
    second.done();
  });

  it('does not retry a 400 that does not name the apiVersion', async () => {
    const VESSELS = '/api/formation/v1/environments/dev/vessels';
    api().post(VESSELS).reply(400, {
      kind: 'Status',
      reason: 'BadRequest',
      code: 400,
      message: 'spec.region: Required value',
    });
    const { client } = testClient();
    await expect(
      client.createVessel('dev', {
        metadata: { name: 'v1' },
        spec: { region: '', template: { spec: { containers: [{ name: 'gs' }] } } },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
