import { describe, expect, it } from '@jest/globals';
import { readConfig } from '../../../src/config/config.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createReceiver } from '../../../src/slack/receiver.js';
import { checkHealth } from '../../../src/slack/runtime/health.js';
import { StoreError, UNWRITABLE } from '../../../src/store/errors.js';

describe('checkHealth', () => {
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

describe('createReceiver', () => {
  const slackConfig = (env: Record<string, string>) => {
    const result = readConfig(env);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    return result.config.slack;
  };

  it('uses Socket Mode with an app-level token, not connected until started', () => {
    const r = createReceiver(
      slackConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1-x' }),
      [],
      silentLogger,
    );
    expect(r.mode).toBe('socket');
    expect(r.socketOpen()).toBe(false);
  });

  it('uses the signed HTTP receiver otherwise', () => {
    const r = createReceiver(
      slackConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' }),
      [],
      silentLogger,
    );
    expect(r.mode).toBe('http');
    expect(r.socketOpen()).toBe(true);
  });
});
