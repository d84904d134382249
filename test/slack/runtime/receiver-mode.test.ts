/** Which receiver the Slack settings choose: Socket Mode with an app-level token, signed HTTP otherwise. */
import { describe, expect, it } from '@jest/globals';
import { readConfig } from '../../../src/config/config.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createReceiver } from '../../../src/slack/receiver.js';

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
