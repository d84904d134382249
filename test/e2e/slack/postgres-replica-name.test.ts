/**
 * On PostgreSQL every connection of a replica's pool carries the replica id
 * as its application_name, so pg_stat_activity (and lock waits, and the
 * server's log) say which of the three pods holds what.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type RunningBot, startBot } from '../../../src/startup/start-bot.js';
import { TEST_BOT } from '../../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { e2eConfig } from './bot-harness.js';

const pgUrl = process.env.HARBOR_TEST_DATABASE_URL;
if (!pgUrl) console.warn('PostgreSQL replica-name test skipped: set HARBOR_TEST_DATABASE_URL');
const describePg = pgUrl ? describe : describe.skip;

describePg('PostgreSQL application_name', () => {
  const schema = `appname_${process.pid}_${Date.now().toString(36)}`;
  const replicaId = `harbormaster-7d9f-${process.pid}`;
  let admin: pg.Pool;
  let sim: Simulator;
  let slack: SlackStandIn;
  let bot: RunningBot;
  let dataDir: string;

  beforeAll(async () => {
    admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(pgUrl as string);
    url.searchParams.set('options', `-c search_path=${schema}`);
    sim = await startSimulator({ port: 0 });
    slack = await startSlackStandIn({ token: TEST_BOT.token });
    dataDir = await mkdtemp(join(tmpdir(), 'harbor-appname-'));
    const config = await e2eConfig({
      slackApiUrl: slack.apiUrl,
      sim,
      dataDir,
      replicaId,
      databaseUrl: url.toString(),
    });
    bot = await startBot(config, createMemoryLogger(), { clientOptions: { retryConfig: { retries: 0 } } });
  });

  afterAll(async () => {
    await bot?.stop();
    await slack?.stop();
    await sim?.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("names the replica on each of its pool's connections", async () => {
    // The health check's write goes through the pool, as every click does.
    await bot.core.store.ping();
    const { rows } = await admin.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [replicaId],
    );
    expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(1);
  });
});
