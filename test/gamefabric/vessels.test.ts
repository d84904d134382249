import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ApiError, isNotFound, type VesselCreate } from '../../src/gamefabric/client.js';
import { api, BASE, exactly, status, TOKEN, testClient, useNock, vessel } from './helpers.js';

const VESSELS = '/api/formation/v1/environments/dev/vessels';

useNock();

/** The seed's create payload, minus what the client fills in. */
const input: VesselCreate = {
  metadata: { name: 'my-vessel' },
  spec: {
    description: 'test server',
    region: 'eu',
    template: {
      spec: {
        containers: [
          {
            name: 'game',
            branch: 'dev',
            image: 'img-7f3a',
            ports: [{ name: 'game', policy: 'Passthrough', containerPort: 7777, protocol: 'UDP' }],
            args: ['--mode', 'ctf'],
            resources: { requests: { cpu: '250m', memory: '512Mi' } },
          },
        ],
      },
    },
  },
};

describe('createVessel (endpoint 3)', () => {
  it('posts the Vessel with kind, the seed apiVersion and the environment filled in', async () => {
    const expected = {
      ...input,
      apiVersion: 'formation/v1beta1',
      kind: 'Vessel',
      metadata: { name: 'my-vessel', environment: 'dev' },
    };
    const scope = nock(BASE, {
      reqheaders: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${TOKEN}`,
      },
    })
      .post(VESSELS, exactly(expected))
      .reply(201, { ...expected, status: { state: 'Pending' } });
    const { client } = testClient();
    const created = await client.createVessel('dev', input);
    expect(created.status?.state).toBe('Pending');
    scope.done();
  });

  it('uses the configured vesselApiVersion', async () => {
    const scope = api()
      .post(VESSELS, (body) => body.apiVersion === 'formation/v1' && body.kind === 'Vessel')
      .reply(201, vessel('my-vessel'));
    const { client } = testClient({ vesselApiVersion: 'formation/v1' });
    await client.createVessel('dev', input);
    scope.done();
  });

  it('passes a validation failure on as an ApiError', async () => {
    api()
      .post(VESSELS)
      .reply(422, status(422, 'Invalid', 'spec.region: region "mars" not found'));
    const { client } = testClient();
    await expect(client.createVessel('dev', input)).rejects.toMatchObject({
      status: 422,
      reason: 'Invalid',
      message: `POST ${VESSELS}: 422 Invalid: spec.region: region "mars" not found`,
    });
  });
});

describe('listVessels (endpoint 4) and getVessel', () => {
  it('lists the environment with status state and reason', async () => {
    const pending = { ...vessel('b'), status: { state: 'Error', reason: 'No suitable site found' } };
    api()
      .get(VESSELS)
      .reply(200, { items: [vessel('a'), pending] });
    const { client } = testClient();
    const vessels = await client.listVessels('dev');
    expect(vessels.map((v) => [v.metadata.name, v.status?.state, v.status?.reason])).toEqual([
      ['a', 'Running', undefined],
      ['b', 'Error', 'No suitable site found'],
    ]);
  });

  it('reads a Vessel with apiVersion formation/v1beta1 or formation/v1', async () => {
    api()
      .get(`${VESSELS}/a`)
      .reply(200, { ...vessel('a'), apiVersion: 'formation/v1beta1' });
    api().get(`${VESSELS}/b`).reply(200, vessel('b'));
    const { client } = testClient();
    await expect(client.getVessel('dev', 'a')).resolves.toMatchObject({ apiVersion: 'formation/v1beta1' });
    await expect(client.getVessel('dev', 'b')).resolves.toMatchObject({ apiVersion: 'formation/v1' });
  });

  it('answers a 404 ApiError once the Vessel is gone', async () => {
    api()
      .get(`${VESSELS}/gone`)
      .reply(404, status(404, 'NotFound', 'vessels "gone" not found'));
    const { client } = testClient();
    const error = await client.getVessel('dev', 'gone').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isNotFound(error)).toBe(true);
  });

  it('keeps fields it does not model', async () => {
    api()
      .get(`${VESSELS}/a`)
      .reply(200, { ...vessel('a'), spec: { ...vessel('a').spec, terminationGracePeriodSeconds: 30 } });
    const { client } = testClient();
    const got = await client.getVessel('dev', 'a');
    expect(got.spec.terminationGracePeriodSeconds).toBe(30);
  });
});

describe('deleteVessel (endpoint 6)', () => {
  it('sends DELETE without a body and accepts any 2xx answer', async () => {
    const scope = nock(BASE, { badheaders: ['content-type'] })
      .delete(`${VESSELS}/my-vessel`)
      .reply(200, { ...vessel('my-vessel'), status: { state: 'Terminating' } });
    nock(BASE).delete(`${VESSELS}/other`).reply(204);
    const { client } = testClient();
    await expect(client.deleteVessel('dev', 'my-vessel')).resolves.toBeUndefined();
    await expect(client.deleteVessel('dev', 'other')).resolves.toBeUndefined();
    scope.done();
  });
});
