/**
 * Reads must survive what the real service returns (issue 12.1): Passthrough
 * ports without containerPort/protocol, port policies newer than the seed, a
 * Region Type without a template or with an empty scheduling. Unknown fields
 * stay on the parsed object.
 */
import { describe, expect, it } from '@jest/globals';
import { schedulingOf } from '../../src/gamefabric/resources.js';
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
          allocator: { tokenServiceRef: 'x' },
        },
      });
    const { client } = testClient();
    const region = await client.getRegion('dev', 'eu');
    expect(region.spec.types.map(schedulingOf)).toEqual(['Packed', 'Packed', 'Balanced']);
    expect(region.spec).toHaveProperty('allocator');
  });
});
