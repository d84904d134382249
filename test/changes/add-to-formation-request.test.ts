/**
 * The exact PATCH `formation add` sends for overrides (issue 12.4): entries in
 * template container order, one per container up to the last overridden one,
 * so a controller matching by name (the docs) and one matching by position
 * (the provider's type has no name) override the same container.
 */
import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { OperationContext } from '../../src/changes/operation.js';
import { addToFormation } from '../../src/changes/operations/formation.add/operation.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { api, BASE, exactly, member, region, TOKEN, testClient, useNock } from '../gamefabric/helpers.js';

useNock();

const TRIO = '/api/formation/v1/environments/dev/formations/trio';

/** Formation trio: containers game-server, metrics, chat (in that order), one vessel a. */
const trio = {
  apiVersion: 'formation/v1',
  kind: 'Formation',
  metadata: { name: 'trio', environment: 'dev' },
  spec: {
    template: {
      spec: {
        containers: [
          { name: 'game-server', branch: 'dev', image: 'gs-1', args: ['--a'] },
          { name: 'metrics', branch: 'dev', image: 'm-1' },
          { name: 'chat', branch: 'dev', image: 'c-1' },
        ],
      },
    },
    vessels: [member('a')],
  },
};

function context(): OperationContext {
  const { client, clock } = testClient();
  return { client, clock, logger: silentLogger, follow: { pollMs: 1000, timeoutMs: 1000 }, environments: [] };
}

describe('formation add: override request shape', () => {
  it('sends the overridden metrics container second, after a bare entry that keeps game-server', async () => {
    const ctx = context();
    api().get(TRIO).twice().reply(200, trio);
    api().get('/api/core/v1/environments/dev/regions/eu').reply(200, region('eu', []));
    api()
      .get('/api/container/v1/images/scopes/dev')
      .query({ fieldSelector: 'spec.image=metrics,spec.tag=2.0' })
      .reply(200, { items: [{ metadata: { name: 'm-2' }, spec: { image: 'metrics', tag: '2.0' } }] });
    const request = addToFormation.parse({
      environment: 'dev',
      formation: 'trio',
      vessel: 'b',
      region: 'eu',
      overrides: [{ container: 'metrics', image: 'metrics:2.0', args: ['--port', '9100'] }],
    });
    const preview = await addToFormation.plan(ctx, request);
    const entry = {
      name: 'b',
      region: 'eu',
      override: {
        containers: [{ name: 'game-server' }, { name: 'metrics', image: 'm-2', args: ['--port', '9100'] }],
      },
    };
    const patch = nock(BASE, {
      reqheaders: { 'content-type': 'application/json-patch+json', authorization: `Bearer ${TOKEN}` },
    })
      .patch(
        TRIO,
        exactly([
          { op: 'test', path: '/spec/vessels', value: [member('a')] },
          { op: 'add', path: '/spec/vessels/-', value: entry },
        ]),
      )
      .reply(200, { ...trio, spec: { ...trio.spec, vessels: [member('a'), entry] } });
    await addToFormation.apply(ctx, { request, preview, applyToken: 't-1' });
    patch.done();
    expect(preview.facts.expected).toEqual([
      {
        index: 1,
        container: 'metrics',
        image: { name: 'm-2', label: 'metrics:2.0 (m-2)' },
        args: ['--port', '9100'],
      },
    ]);
  });

  it('orders overrides given out of order by their template position', async () => {
    const ctx = context();
    api().get(TRIO).reply(200, trio);
    api().get('/api/core/v1/environments/dev/regions/eu').reply(200, region('eu', []));
    const request = addToFormation.parse({
      environment: 'dev',
      formation: 'trio',
      vessel: 'b',
      region: 'eu',
      overrides: [
        { container: 'chat', args: ['--room', 'x'] },
        { container: 'game-server', args: ['--b'] },
      ],
    });
    const preview = await addToFormation.plan(ctx, request);
    expect(preview.facts.entry).toEqual({
      name: 'b',
      region: 'eu',
      override: {
        containers: [
          { name: 'game-server', args: ['--b'] },
          { name: 'metrics' },
          { name: 'chat', args: ['--room', 'x'] },
        ],
      },
    });
    expect(preview.lines.map((l) => l.label)).toEqual([
      'Formation',
      'New vessel',
      'Override game-server',
      'Override chat',
    ]);
  });
});
