/**
 * What readiness asks of each replica: a Slack replica Slack and the store, a
 * worker the hosting API's configuration and the store; each report names
 * only what that replica has.
 */
import { describe, expect, it } from '@jest/globals';
import { checkHealth } from '../../src/probes/health.js';
import { StoreError, UNWRITABLE } from '../../src/store/errors.js';

describe('checkHealth of a Slack replica', () => {
  it('is ready only when Slack is connected and the store answers', async () => {
    const ok = async () => {};
    const down = async () => {
      throw new Error('connection refused');
    };
    expect(await checkHealth({ slackConnected: () => true, pingStore: ok })).toEqual({
      ready: true,
      slack: 'connected',
      store: 'ok',
    });
    expect(await checkHealth({ slackConnected: () => false, pingStore: ok })).toMatchObject({
      ready: false,
      slack: 'disconnected',
    });
    expect(await checkHealth({ slackConnected: () => true, pingStore: down })).toMatchObject({
      ready: false,
      store: 'unreachable',
    });
  });

  it('tells a store that refuses writes apart from one that does not answer', async () => {
    const readOnly = async () => {
      throw new StoreError('the store answers but refuses writes: database or disk is full', UNWRITABLE);
    };
    expect(await checkHealth({ slackConnected: () => true, pingStore: readOnly })).toEqual({
      ready: false,
      slack: 'connected',
      store: 'unwritable',
    });
  });
});

describe('checkHealth of a worker', () => {
  const ok = async () => {};
  it('is ready when the hosting API is configured and the store answers, and names no Slack', async () => {
    expect(await checkHealth({ apiConfigured: () => true, pingStore: ok })).toEqual({
      ready: true,
      api: 'configured',
      store: 'ok',
    });
  });

  it('is not ready on the embedded demo API, nor while draining', async () => {
    expect(await checkHealth({ apiConfigured: () => false, pingStore: ok })).toEqual({
      ready: false,
      api: 'simulator',
      store: 'ok',
    });
    expect(await checkHealth({ apiConfigured: () => true, pingStore: ok, draining: () => true })).toEqual({
      ready: false,
      api: 'configured',
      store: 'ok',
      draining: true,
    });
  });
});
