/**
 * Issue 27, point 2: in Socket Mode `/readyz` answers 200 as soon as Slack is
 * connected. The bot is started as main.ts starts it (startBot, an app-level
 * token, probes on 127.0.0.1) against the Slack stand-in's Socket Mode
 * server; readiness asks only whether auth.test passed, the socket is open
 * and the store takes a write, so once start-up resolves with the socket
 * greeted it is 200 (test/slack/runtime/probes.test.ts covers the 503s).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { silentLogger } from '../../../src/runtime/logger.js';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type RunningBot, startBot } from '../../../src/startup/start-bot.js';
import { TEST_BOT } from '../../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { e2eConfig } from './bot-harness.js';

const APP_TOKEN = 'xapp-1-A0HARBOR-1-socket-readyz';

let sim: Simulator | undefined;
let slack: SlackStandIn | undefined;
let bot: RunningBot | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  // The bot first: it closes its socket while the stand-in still answers the closing handshake.
  await bot?.stop();
  await slack?.stop();
  await sim?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A port free on loopback right now (Socket Mode serves the probes on the configured port, not 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function getJson(port: number, path: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

it('is ready as soon as start-up has the socket open', async () => {
  sim = await startSimulator({ port: 0, stepMs: 5, terminationMs: 5 });
  slack = await startSlackStandIn({ token: TEST_BOT.token });
  dataDir = await mkdtemp(join(tmpdir(), 'harbor-socket-readyz-'));
  const config = await e2eConfig({ slackApiUrl: slack.apiUrl, sim, dataDir, appToken: APP_TOKEN });
  const port = await freePort();
  // No retries: a call in flight when the stand-in stops must not outlive the test.
  bot = await startBot({ ...config, slack: { ...config.slack, port } }, silentLogger, {
    clientOptions: { retryConfig: { retries: 0 } },
  });
  expect(slack.socketMode.connections(APP_TOKEN)).toBe(1);
  expect(await getJson(port, '/readyz')).toEqual({
    status: 200,
    body: { ready: true, slack: 'connected', store: 'ok' },
  });
});
