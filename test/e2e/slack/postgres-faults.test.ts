/**
 * A PostgreSQL that stops answering or drops connections (issue 9, defect 7),
 * played by a real TCP proxy in front of the test database. A click must not
 * hang silently: the pool's timeouts end the wait, and the clicker is told the
 * bot's database is unavailable; /healthz says so too. Nothing is applied.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { demoData, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { type RunningBot, startBot } from '../../../src/startup/start-bot.js';
import { TEST_BOT } from '../../../src/workspace/identity.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { ALICE, clickBody, e2eConfig, SIGNING_SECRET, slashBody } from './bot-harness.js';

const pgUrl = process.env.HARBOR_TEST_DATABASE_URL;
if (!pgUrl) {
  console.warn(
    'PostgreSQL fault tests skipped: set HARBOR_TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test',
  );
}
const describePg = pgUrl ? describe : describe.skip;

/**
 * Short, so a stalled query gives up quickly; the test waits on the bot's
 * answer, not on a clock. Not shorter: the same timeout bounds the bot's own
 * start-up (connect and migrations through the proxy), and 400 ms failed that
 * on a loaded machine.
 */
const DB_TIMEOUT_MS = 1500;

describePg('PostgreSQL behind a faulty network', () => {
  let sim: Simulator;
  let slack: SlackStandIn;
  let proxy: TcpProxy;
  let bot: RunningBot;
  let dataDir: string;
  let schema: string;
  let admin: pg.Pool;

  beforeEach(async () => {
    schema = `pgfault_${process.pid}_${Date.now().toString(36)}`;
    admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    const target = new URL(pgUrl as string);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(pgUrl as string);
    viaProxy.port = String(proxy.port);
    viaProxy.searchParams.set('options', `-c search_path=${schema}`);

    const data = demoData();
    data.branches.staging = [];
    sim = await startSimulator({ port: 0, stepMs: 5, data });
    slack = await startSlackStandIn({ token: TEST_BOT.token });
    dataDir = await mkdtemp(join(tmpdir(), 'harbor-pgfault-'));
    const config = await e2eConfig({
      slackApiUrl: slack.apiUrl,
      sim,
      dataDir,
      databaseUrl: viaProxy.toString(),
    });
    config.databaseTimeoutMs = DB_TIMEOUT_MS;
    bot = await startBot(config, createMemoryLogger(), { clientOptions: { retryConfig: { retries: 0 } } });
  });

  afterEach(async () => {
    // Connections held by the stalled proxy are released first, so the pool can end.
    await proxy.close();
    await bot.stop();
    await slack.stop();
    await sim.stop();
    await rm(dataDir, { recursive: true, force: true });
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  const eventsUrl = () => `http://127.0.0.1:${bot.port}/slack/events`;
  const send = async (body: string) => {
    await postSigned(eventsUrl(), SIGNING_SECRET, body);
    await bot.bot.idle();
  };
  const promotions = () => sim.countRequests('POST', '/api/container/v1/imagepromotions');
  const lastTold = () =>
    slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1)?.text ?? '';

  async function requestPromotion(): Promise<StoredMessage> {
    await send(slashBody(slack, 'promote game-server:1.1.0 from dev to staging', ALICE));
    const preview = slack.channelMessages('C0OPS').at(-1);
    if (!preview) throw new Error('no preview');
    expect(preview.text).toMatch(/Promote/);
    return preview;
  }

  it.each([
    ['stalls', (p: TcpProxy) => p.stall()],
    ['cuts every connection', (p: TcpProxy) => p.cut()],
  ])(
    'when the database %s, a click is answered "the bot’s database is unavailable"',
    async (_what, fault) => {
      const preview = await requestPromotion();
      fault(proxy);
      await send(clickBody(slack, preview, CHANGE_ACTIONS.confirm, ALICE));
      expect(lastTold()).toMatch(/^The bot's database is unavailable just now/);
      expect(promotions()).toBe(0);

      const health = await fetch(`http://127.0.0.1:${bot.port}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ store: 'unreachable' });
    },
  );

  it('recovers once the database answers again', async () => {
    const preview = await requestPromotion();
    proxy.stall();
    await send(clickBody(slack, preview, CHANGE_ACTIONS.confirm, ALICE));
    expect(lastTold()).toMatch(/database is unavailable/);
    proxy.heal();
    await send(clickBody(slack, preview, CHANGE_ACTIONS.confirm, ALICE));
    expect(promotions()).toBe(1);
  });
});
