import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ApiError } from '../../src/gamefabric/client.js';
import { api, formation, region, status, testClient, useNock, vessel } from './helpers.js';

const LIST = '/api/formation/v1/environments/dev/vessels';
const ONE = `${LIST}/x`;

useNock();

describe('retries of idempotent requests', () => {
  it.each([502, 503, 504])(
    'retries a GET on %i with capped exponential backoff, then succeeds',
    async (code) => {
      api().get(LIST).times(3).reply(code, 'busy');
      api()
        .get(LIST)
        .reply(200, { items: [vessel('x')] });
      const { client, clock } = testClient({ retry: { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 500 } });
      await expect(client.listVessels('dev')).resolves.toHaveLength(1);
      // 200, 400, then 800 capped to 500 (jitter pinned to the top of the range).
      expect(clock.sleeps).toEqual([200, 400, 500]);
    },
  );

  it('applies jitter between half the step and the step', async () => {
    api().get(LIST).times(2).reply(503);
    api().get(LIST).reply(200, { items: [] });
    const { client, clock } = testClient({ random: () => 0 });
    await client.listVessels('dev');
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it('retries a GET after a network failure', async () => {
    api().get(LIST).replyWithError('socket hang up');
    api().get(LIST).reply(200, { items: [] });
    const { client, clock } = testClient();
    await expect(client.listVessels('dev')).resolves.toEqual([]);
    expect(clock.sleeps).toEqual([200]);
  });

  it('honours Retry-After in seconds on a 429', async () => {
    api()
      .get(LIST)
      .reply(429, status(429, 'TooManyRequests', 'slow down'), { 'Retry-After': '3' });
    api().get(LIST).reply(200, { items: [] });
    const { client, clock } = testClient();
    await client.listVessels('dev');
    expect(clock.sleeps).toEqual([3000]);
  });

  it('honours Retry-After as an HTTP-date', async () => {
    const { client, clock } = testClient();
    const at = new Date(clock.now() + 7000).toUTCString();
    api().get(LIST).reply(503, 'maintenance', { 'Retry-After': at });
    api().get(LIST).reply(200, { items: [] });
    await client.listVessels('dev');
    expect(clock.sleeps).toEqual([7000]);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const scope = api()
      .get(LIST)
      .times(3)
      .reply(503, status(503, 'ServiceUnavailable', 'try later'));
    const { client, clock } = testClient({ retry: { maxAttempts: 3 } });
    const error = await client.listVessels('dev').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, reason: 'ServiceUnavailable' });
    expect(clock.sleeps).toHaveLength(2);
    scope.done();
  });

  it.each([400, 403, 404, 500])('does not retry a GET on %i', async (code) => {
    api().get(ONE).reply(code, 'no');
    const { client, clock } = testClient();
    await expect(client.getVessel('dev', 'x')).rejects.toMatchObject({ status: code });
    expect(clock.sleeps).toEqual([]);
  });
});

describe('retries of other writes', () => {
  it.each([
    [
      'createVessel',
      (c: ReturnType<typeof testClient>['client']) => c.createVessel('dev', vessel('x')),
      'post',
      LIST,
    ],
    [
      'deleteVessel',
      (c: ReturnType<typeof testClient>['client']) => c.deleteVessel('dev', 'x'),
      'delete',
      ONE,
    ],
    [
      'patchFormation',
      (c: ReturnType<typeof testClient>['client']) =>
        c.patchFormation('dev', 'f', [{ op: 'remove', path: '/spec/vessels/0' }]),
      'patch',
      '/api/formation/v1/environments/dev/formations/f',
    ],
    [
      'createRegion',
      (c: ReturnType<typeof testClient>['client']) => c.createRegion('dev', region('eu', [])),
      'post',
      '/api/core/v1/environments/dev/regions',
    ],
  ] as const)('%s is not retried on a 503 or a network failure', async (_name, call, method, path) => {
    api()
      .intercept(path, method.toUpperCase())
      .reply(503, status(503, 'ServiceUnavailable', 'busy'));
    const { client, clock } = testClient();
    await expect(call(client)).rejects.toMatchObject({ status: 503 });
    api().intercept(path, method.toUpperCase()).replyWithError('socket hang up');
    await expect(call(client)).rejects.toMatchObject({ status: 0, reason: 'NetworkError' });
    expect(clock.sleeps).toEqual([]);
    expect(nock.isDone()).toBe(true);
  });

  it('retries a write refused with 429, honouring Retry-After', async () => {
    api().delete(ONE).reply(429, '', { 'Retry-After': '2' });
    const scope = api()
      .delete(ONE)
      .reply(200, status(200, '', 'deleted'));
    const { client, clock } = testClient();
    await client.deleteVessel('dev', 'x');
    expect(clock.sleeps).toEqual([2000]);
    scope.done();
  });

  it('does not retry a formation patch after a timeout', async () => {
    const path = '/api/formation/v1/environments/dev/formations/f';
    api().patch(path).delay(2_000).reply(200, formation('f', []));
    const { client, clock } = testClient({ timeoutMs: 20 });
    await expect(client.patchFormation('dev', 'f', [])).rejects.toMatchObject({
      status: 0,
      reason: 'Timeout',
    });
    expect(clock.sleeps).toEqual([]);
    nock.abortPendingRequests();
  });
});

describe('aborting', () => {
  it('stops waiting for a retry when the signal aborts, with status 0 Aborted', async () => {
    api().get(`${ONE}/logs`).reply(503);
    const controller = new AbortController();
    const { client } = testClient({
      clock: {
        now: () => 0,
        sleep: async (_ms, signal) => {
          controller.abort(new Error('user cancelled'));
          if (signal?.aborted) throw signal.reason;
        },
      },
    });
    await expect(client.vesselLogs('dev', 'x', { signal: controller.signal })).rejects.toMatchObject({
      status: 0,
      reason: 'Aborted',
    });
  });
});
