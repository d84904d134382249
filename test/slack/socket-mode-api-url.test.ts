/**
 * Socket Mode honours SLACK_API_URL (issue 9, defect 13): the receiver's own
 * Web API client opens the socket with `apps.connections.open`, and that call
 * must go to the configured Slack (here the stand-in), never to slack.com.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { readConfig } from '../../src/config/config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/startup/start-bot.js';
import { TEST_BOT } from '../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';

const APP_TOKEN = 'xapp-1-A0HARBOR-socket-test-token';
let standIn: SlackStandIn | undefined;
let dataDir: string | undefined;
let running: RunningBot | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await standIn?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('asks the configured Slack API URL for the socket, with the app token', async () => {
  standIn = await startSlackStandIn({ token: TEST_BOT.token });
  dataDir = await mkdtemp(join(tmpdir(), 'harbor-socket-'));
  const config = readConfig({
    SLACK_BOT_TOKEN: TEST_BOT.token,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_API_URL: standIn.apiUrl,
    PORT: '0',
    HARBOR_DATA_DIR: dataDir,
  });
  if (!config.ok) throw new Error(config.problems.join('\n'));
  // No retries: a call in flight when the stand-in stops must not outlive the test.
  const started = startBot(config.config, silentLogger, {
    clientOptions: { retryConfig: { retries: 0 } },
  });
  const call = await standIn.waitFor((c) => c.method === 'apps.connections.open', { timeoutMs: 10_000 });
  expect(call.token).toBe(APP_TOKEN);
  // The stand-in's Socket Mode server takes the connection the answer pointed to.
  running = await started;
  expect(standIn.socketMode.connections(APP_TOKEN)).toBe(1);
});
