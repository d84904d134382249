import { describe, expect, it } from '@jest/globals';
import jsonpatch from 'fast-json-patch';
import nock from 'nock';
import type { Formation, JsonPatchOperation } from '../../src/api-shapes/resources.js';
import {
  ApiError,
  ConcurrentModificationError,
  DuplicateVesselError,
  VesselNotInFormationError,
} from '../../src/gamefabric/client.js';
import { api, BASE, exactly, formation, member, status, TOKEN, testClient, useNock } from './helpers.js';

const FORMATIONS = '/api/formation/v1/environments/dev/formations';
const ONE = `${FORMATIONS}/squad`;
const failedTest = status(422, 'Invalid', 'test operation failed: value mismatch');

useNock();

/** A nock scope that only matches a JSON Patch request (content type and token). */
function patchApi() {
  return nock(BASE, {
    reqheaders: {
      'content-type': 'application/json-patch+json',
      accept: 'application/json',
      authorization: `Bearer ${TOKEN}`,
    },
  });
}

describe('reading and creating Formations', () => {
  it('gets one Formation (endpoint 7) with its vessels', async () => {
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a', 'b']));
    const { client } = testClient();
    const got = await client.getFormation('dev', 'squad');
    expect(got.spec.vessels.map((v) => v.name)).toEqual(['a', 'b']);
  });

  it('reads a Formation without spec.vessels as an empty list', async () => {
    api()
      .get(ONE)
      .reply(200, { metadata: { name: 'squad' }, spec: {} });
    const { client } = testClient();
    await expect(client.getFormation('dev', 'squad')).resolves.toMatchObject({ spec: { vessels: [] } });
  });

  it('lists Formations', async () => {
    api()
      .get(FORMATIONS)
      .reply(200, { items: [formation('squad', ['a']), formation('duo', [])] });
    const { client } = testClient();
    await expect(client.listFormations('dev')).resolves.toHaveLength(2);
  });

  it('creates a Formation with kind, apiVersion formation/v1 and the environment filled in', async () => {
    const sent = { ...formation('squad', ['a']), metadata: { name: 'squad', environment: 'dev' } };
    const scope = nock(BASE, { reqheaders: { 'content-type': 'application/json' } })
      .post(FORMATIONS, exactly(sent))
      .reply(201, sent);
    const { client } = testClient();
    await client.createFormation('dev', { metadata: { name: 'squad' }, spec: { vessels: [member('a')] } });
    scope.done();
  });
});

describe('patchFormation (endpoint 8)', () => {
  it('sends the operations as application/json-patch+json', async () => {
    const ops: JsonPatchOperation[] = [{ op: 'add', path: '/spec/vessels/-', value: member('c') }];
    const scope = patchApi()
      .patch(ONE, exactly(ops))
      .reply(200, formation('squad', ['a', 'c']));
    const { client } = testClient();
    await expect(client.patchFormation('dev', 'squad', ops)).resolves.toMatchObject({
      spec: { vessels: [{ name: 'a' }, { name: 'c' }] },
    });
    scope.done();
  });
});

describe('appendVesselToFormation', () => {
  it('tests the list as read, then appends (with overrides)', async () => {
    const entry = {
      name: 'c',
      region: 'eu',
      override: { containers: [{ name: 'game', image: 'img-9', args: ['--map', 'dust'] }] },
    };
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a', 'b']));
    const scope = patchApi()
      .patch(
        ONE,
        exactly([
          { op: 'test', path: '/spec/vessels', value: [member('a'), member('b')] },
          { op: 'add', path: '/spec/vessels/-', value: entry },
        ]),
      )
      .reply(200, {
        ...formation('squad', ['a', 'b']),
        spec: { vessels: [member('a'), member('b'), entry] },
      });
    const { client } = testClient();
    const result = await client.appendVesselToFormation('dev', 'squad', entry);
    expect(result).toMatchObject({ index: 2, attempts: 1 });
    expect(result.formation.spec.vessels[2]).toEqual(entry);
    scope.done();
  });

  it('refuses a duplicate name without patching', async () => {
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a', 'b']));
    const { client } = testClient();
    const error = await client.appendVesselToFormation('dev', 'squad', member('b')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateVesselError);
    expect(error).toMatchObject({ formation: 'squad', vessel: 'b', environment: 'dev' });
  });

  it('re-reads and retries when the list changed underneath (failed test)', async () => {
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a']));
    patchApi()
      .patch(ONE, (ops: JsonPatchOperation[]) => JSON.stringify(ops[0]).includes('"value":[{"name":"a"'))
      .reply(422, failedTest);
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a', 'x']));
    const second = patchApi()
      .patch(
        ONE,
        exactly([
          { op: 'test', path: '/spec/vessels', value: [member('a'), member('x')] },
          { op: 'add', path: '/spec/vessels/-', value: member('c') },
        ]),
      )
      .reply(200, formation('squad', ['a', 'x', 'c']));
    const { client } = testClient();
    await expect(client.appendVesselToFormation('dev', 'squad', member('c'))).resolves.toMatchObject({
      index: 2,
      attempts: 2,
    });
    second.done();
  });

  it('creates the list when the Formation has none', async () => {
    api()
      .get(ONE)
      .reply(200, { metadata: { name: 'squad' }, spec: { template: { spec: { containers: [] } } } });
    const scope = patchApi()
      .patch(ONE, exactly([{ op: 'add', path: '/spec/vessels', value: [member('c')] }]))
      .reply(200, formation('squad', ['c']));
    const { client } = testClient();
    await expect(client.appendVesselToFormation('dev', 'squad', member('c'))).resolves.toMatchObject({
      index: 0,
    });
    scope.done();
  });

  it('gives up with ConcurrentModificationError after maxAttempts', async () => {
    for (let i = 0; i < 3; i++) {
      api()
        .get(ONE)
        .reply(200, formation('squad', [`v${i}`]));
      patchApi()
        .patch(ONE)
        .reply(409, status(409, 'Conflict', 'test failed'));
    }
    const { client } = testClient();
    const error = await client
      .appendVesselToFormation('dev', 'squad', member('c'), { maxAttempts: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentModificationError);
    expect(error).toMatchObject({ attempts: 3, objectName: 'squad' });
    expect((error as Error).cause).toBeInstanceOf(ApiError);
    expect(nock.isDone()).toBe(true);
  });

  it('passes a 422 on at once when a re-read shows nothing changed (the value itself was refused)', async () => {
    api()
      .get(ONE)
      .times(2)
      .reply(200, formation('squad', ['a']));
    patchApi()
      .patch(ONE)
      .once()
      .reply(422, status(422, 'Invalid', 'spec.vessels[1].region: region "mars" not found'));
    const { client } = testClient();
    await expect(
      client.appendVesselToFormation('dev', 'squad', { name: 'c', region: 'mars' }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('region "mars" not found'),
    });
    expect(nock.isDone()).toBe(true);
  });
});

describe('removeVesselFromFormation', () => {
  it('tests the name at the index read, then removes that index', async () => {
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a', 'b', 'c']));
    const scope = patchApi()
      .patch(
        ONE,
        exactly([
          { op: 'test', path: '/spec/vessels/1/name', value: 'b' },
          { op: 'remove', path: '/spec/vessels/1' },
        ]),
      )
      .reply(200, formation('squad', ['a', 'c']));
    const { client } = testClient();
    await expect(client.removeVesselFromFormation('dev', 'squad', 'b')).resolves.toMatchObject({
      removedIndex: 1,
      attempts: 1,
    });
    scope.done();
  });

  it('never removes by a stale index: after a failed test it re-reads and removes the new index', async () => {
    // Read 1: c is at index 2. Someone removes a before our patch arrives, so index 2 no longer holds c.
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a', 'b', 'c']));
    const sent: JsonPatchOperation[][] = [];
    patchApi()
      .patch(ONE, (ops: JsonPatchOperation[]) => {
        sent.push(ops);
        return true;
      })
      .reply(422, failedTest);
    // Read 2: c is now at index 1.
    api()
      .get(ONE)
      .reply(200, formation('squad', ['b', 'c']));
    patchApi()
      .patch(ONE, (ops: JsonPatchOperation[]) => {
        sent.push(ops);
        return true;
      })
      .reply(200, formation('squad', ['b']));
    const { client } = testClient();
    const result = await client.removeVesselFromFormation('dev', 'squad', 'c');
    expect(result).toMatchObject({ removedIndex: 1, attempts: 2 });
    expect(sent).toEqual([
      [
        { op: 'test', path: '/spec/vessels/2/name', value: 'c' },
        { op: 'remove', path: '/spec/vessels/2' },
      ],
      [
        { op: 'test', path: '/spec/vessels/1/name', value: 'c' },
        { op: 'remove', path: '/spec/vessels/1' },
      ],
    ]);
    // Every remove is paired with a test of the name it expects at that index.
    for (const ops of sent) expect(ops[0]).toMatchObject({ op: 'test', value: 'c' });
  });

  it('removes only the named vessel from a Formation that keeps changing between read and patch', async () => {
    // A tiny stateful server: JSON Patch applied atomically (a failed test changes nothing and answers 422),
    // and another actor that changes the list right after each of our first two reads.
    let state: Formation = formation('squad', ['a', 'b', 'c', 'd']);
    const concurrent = [
      (f: Formation) => f.spec.vessels.splice(0, 1), // someone removes a
      (f: Formation) => f.spec.vessels.unshift(member('z')), // someone inserts z at the front
    ];
    let reads = 0;
    api()
      .get(ONE)
      .times(3)
      .reply(() => {
        const answer = structuredClone(state);
        concurrent[reads++]?.(state);
        return [200, answer];
      });
    patchApi()
      .patch(ONE)
      .times(3)
      .reply((_uri, ops) => {
        try {
          const next = structuredClone(state);
          jsonpatch.applyPatch(next, ops as jsonpatch.Operation[], true, true);
          state = next;
          return [200, state];
        } catch {
          return [422, failedTest];
        }
      });
    const { client } = testClient();
    const result = await client.removeVesselFromFormation('dev', 'squad', 'c');
    expect(result.attempts).toBe(3);
    expect(state.spec.vessels.map((v) => v.name)).toEqual(['z', 'b', 'd']);
  });

  it('reports VesselNotInFormationError when the name is absent (also after someone else removed it)', async () => {
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a', 'c']));
    patchApi()
      .patch(ONE)
      .reply(409, status(409, 'Conflict', 'test failed'));
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a']));
    const { client } = testClient();
    const error = await client.removeVesselFromFormation('dev', 'squad', 'c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VesselNotInFormationError);
    expect((error as Error).message).toBe('vessel c is not in formation squad (environment dev)');
  });

  it('is not retried on a 503 (a write), only on a failed test', async () => {
    api()
      .get(ONE)
      .reply(200, formation('squad', ['a']));
    patchApi().patch(ONE).reply(503);
    const { client, clock } = testClient();
    await expect(client.removeVesselFromFormation('dev', 'squad', 'a')).rejects.toMatchObject({
      status: 503,
    });
    expect(clock.sleeps).toEqual([]);
  });
});

describe('unknown fields', () => {
  it('survive a read-modify-write: the test value and the result keep what we do not model', async () => {
    const rich = {
      apiVersion: 'formation/v1',
      kind: 'Formation',
      metadata: { name: 'squad', environment: 'dev', revision: '42', finalizers: ['keep-me'] },
      spec: {
        volumeTemplates: [{ name: 'data', size: '1Gi' }],
        vessels: [{ name: 'a', region: 'eu', suspend: false, override: { labels: { x: 'y' }, gpu: true } }],
      },
      status: { state: 'Synced', observedRevision: '41' },
    };
    api().get(ONE).reply(200, rich);
    const added = { name: 'b', region: 'eu' };
    const scope = patchApi()
      .patch(
        ONE,
        exactly([
          { op: 'test', path: '/spec/vessels', value: rich.spec.vessels },
          { op: 'add', path: '/spec/vessels/-', value: added },
        ]),
      )
      .reply(200, { ...rich, spec: { ...rich.spec, vessels: [...rich.spec.vessels, added] } });
    const { client } = testClient();
    const { formation: after } = await client.appendVesselToFormation('dev', 'squad', added);
    scope.done();
    expect(after.metadata.finalizers).toEqual(['keep-me']);
    expect(after.spec.volumeTemplates).toEqual([{ name: 'data', size: '1Gi' }]);
    expect(after.spec.vessels[0]?.override).toEqual({ labels: { x: 'y' }, gpu: true });
    expect(after.status).toEqual({ state: 'Synced', observedRevision: '41' });
  });
});
