/**
 * SIGTERM in HTTP mode, as Kubernetes sends it: readiness turns 503 first
 * while the bot still serves (the drain, on an injected clock), requests
 * already accepted finish, and only then does the listener close. And
 * HARBOR_METRICS_PORT: probes and metrics on their own port, the bot's port
 * serving Slack alone. Real servers throughout.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import type { CustomRoute } from '@slack/bolt';
import type { Config } from '../../../src/config/config.js';
import { PROBE_PATHS } from '../../../src/probes/health.js';
import { ManualClock } from '../../../src/runtime/clock.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type RunningBot, startBot } from '../../../src/startup/start-bot.js';
import { TEST_BOT } from '../../../src/workspace/identity.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { type SlackStandIn, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { e2eConfig, SIGNING_SECRET, slashBody } from './bot-harness.js';

let sim: Simulator | undefined;
let slack: SlackStandIn | undefined;
let running: RunningBot | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await running?.stop().catch(() => {});
  await slack?.stop();
  await sim?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  running = undefined;
});

async function boot(
  tweak: (c: Config) => Config,
  routes: CustomRoute[] = [],
  probeClock = new ManualClock(),
) {
  sim = await startSimulator({ port: 0 });
  slack = await startSlackStandIn({ token: TEST_BOT.token });
  dataDir = await mkdtemp(join(tmpdir(), 'harbor-drain-'));
  const config = tweak(await e2eConfig({ slackApiUrl: slack.apiUrl, sim, dataDir }));
  running = await startBot(config, createMemoryLogger(), {
    clientOptions: { retryConfig: { retries: 0 } },
    routes,
    probeClock,
  });
  return { running, probeClock };
}

/** A GET on a fresh connection (no keep-alive), so each request shows whether the listener still accepts. */
function get(port: number | undefined, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += String(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

function latch(): { promise: Promise<void>; release(): void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

it('turns readiness 503 first, keeps serving through the drain, lets accepted requests finish, then closes', async () => {
  const slow = latch();
  const arrived = latch();
  const slowRoute: CustomRoute = {
    path: '/slow',
    method: ['GET'],
    handler: (_req, res) => {
      arrived.release();
      void slow.promise.then(() => res.end('finished'));
    },
  };
  const { running: bot, probeClock } = await boot((c) => ({ ...c, shutdownDrainMs: 5_000 }), [slowRoute]);
  const port = bot.port;
  expect((await get(port, PROBE_PATHS.ready)).status).toBe(200);

  const accepted = get(port, '/slow');
  await arrived.promise;
  let stopped = false;
  const stopping = bot.stop().then(() => {
    stopped = true;
  });
  // The drain sleeps on the probe clock (beside the heartbeat's beat).
  await probeClock.whenSleeping(2);

  const ready = await get(port, PROBE_PATHS.ready);
  expect(ready.status).toBe(503);
  expect(JSON.parse(ready.text)).toMatchObject({ ready: false, draining: true });
  expect((await get(port, PROBE_PATHS.live)).status).toBe(200);
  // Slack's requests are still served during the drain.
  const command = await fetchSigned(
    `http://127.0.0.1:${port}/slack/events`,
    slashBody(slack as SlackStandIn, 'help'),
  );
  expect(command).toBe(200);

  await probeClock.advance(5_000);
  // Drain over, but a request accepted before is still open: the listener waits for it.
  expect(stopped).toBe(false);
  expect((await get(port, PROBE_PATHS.ready)).status).toBe(503);
  slow.release();
  expect(await accepted).toEqual({ status: 200, text: 'finished' });
  await stopping;
  await expect(get(port, PROBE_PATHS.ready)).rejects.toThrow(/ECONNREFUSED/);
  running = undefined;
});

it('serves the probes and /metrics on HARBOR_METRICS_PORT, on the listen host, and the bot port serves Slack only', async () => {
  const { running: bot } = await boot((c) => ({
    ...c,
    slack: { ...c.slack, metricsPort: 0, host: '127.0.0.1' },
  }));
  const ops = bot.metricsPort;
  expect(ops).toBeGreaterThan(0);
  expect(ops).not.toBe(bot.port);
  expect((await get(ops, PROBE_PATHS.live)).status).toBe(200);
  expect((await get(ops, PROBE_PATHS.ready)).status).toBe(200);
  expect((await get(ops, PROBE_PATHS.readyAlias)).status).toBe(200);
  expect((await get(ops, PROBE_PATHS.metrics)).text).toContain('# TYPE harbor_slack_calls_total counter');
  for (const path of Object.values(PROBE_PATHS)) expect((await get(bot.port, path)).status).toBe(404);
  expect(
    await fetchSigned(`http://127.0.0.1:${bot.port}/slack/events`, slashBody(slack as SlackStandIn, 'help')),
  ).toBe(200);
});

async function fetchSigned(url: string, body: string): Promise<number> {
  return (await postSigned(url, SIGNING_SECRET, body)).status;
}
