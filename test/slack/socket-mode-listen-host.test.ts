/**
 * Issue 22, point 10 (in part): in Socket Mode the health and metrics routes
 * are served on HARBOR_LISTEN_HOST only, as in HTTP mode. Bolt's Socket Mode
 * receiver listens on a port without a host (every interface), so the bot
 * serves those routes itself. Checked on Linux's loopback range: with the bot
 * on 127.0.0.1, the same port on 127.0.0.2 is still free, and the routes
 * answer on 127.0.0.1.
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, expect, it } from '@jest/globals';
import type { SlackConfig } from '../../src/config/config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type BotReceiver, createReceiver } from '../../src/slack/receiver.js';
import { TEST_BOT } from '../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';

let standIn: SlackStandIn | undefined;
let receiver: BotReceiver | undefined;
afterEach(async () => {
  await receiver?.stop();
  await standIn?.stop();
});

/** A port free on every interface right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0);
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Whether `port` can be bound on `host` now. */
async function canBind(port: number, host: string): Promise<boolean> {
  const probe = createServer();
  const result = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => resolve(true));
  });
  if (result) await new Promise<void>((resolve) => probe.close(() => resolve()));
  return result;
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

it('serves its routes on HARBOR_LISTEN_HOST only', async () => {
  standIn = await startSlackStandIn({ token: TEST_BOT.token });
  const port = await freePort();
  const slack = {
    mode: 'socket',
    botToken: TEST_BOT.token,
    appToken: 'xapp-1-A0HARBOR-socket-test-token',
    apiUrl: standIn.apiUrl,
    command: '/harbor',
    port,
    host: '127.0.0.1',
  } satisfies SlackConfig;
  receiver = createReceiver(
    slack,
    [{ path: '/healthz', method: ['GET'], handler: (_req, res) => res.end('ok') }],
    silentLogger,
    { clientOptions: { retryConfig: { retries: 0 } } },
  );
  // The receiver connects to the stand-in's Socket Mode server; its routes are the bot's own.
  await receiver.start();
  expect(standIn.socketMode.connections()).toBe(1);
  expect(await get(port, '/healthz')).toBe(200);
  expect(await canBind(port, '127.0.0.2')).toBe(true);
});
