/**
 * Issue 22, point 5: the bot's database fails after the hosting API took a
 * write. The API changed, so the user must not read "try again" next to a
 * live Confirm: the message says the change was applied and its recording is
 * pending, and the change ends Done (stored, audited, redrawn) as soon as the
 * store answers again. On SQLite the store turns read-only under the running
 * bot; on PostgreSQL a TCP proxy in front of the database stalls.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import type { SqliteStore } from '../../../src/store/sqlite-store.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { ALICE, type BotHarness, clickBody, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { buttonIds, shown } from './harness-extras.js';

const pgUrl = process.env.HARBOR_TEST_DATABASE_URL;
const PROMOTIONS = '/api/container/v1/imagepromotions';

interface Fixture {
  h: BotHarness;
  simClock: ManualClock;
  breakStore(): void;
  healStore(): void;
  cleanup(): Promise<void>;
}

async function sqliteFixture(): Promise<Fixture> {
  const simClock = new ManualClock(Date.now());
  const h = await startBotHarness({ simClock });
  const db = () => (h.running.core.store as SqliteStore).db;
  return {
    h,
    simClock,
    breakStore: () => db().pragma('query_only = ON'),
    healStore: () => db().pragma('query_only = OFF'),
    cleanup: () => h.stop(),
  };
}

async function postgresFixture(url: string): Promise<Fixture> {
  const schema = `recpend_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const target = new URL(url);
  const proxy: TcpProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(url);
  viaProxy.port = String(proxy.port);
  viaProxy.searchParams.set('options', `-c search_path=${schema}`);
  const simClock = new ManualClock(Date.now());
  const h = await startBotHarness({ simClock, databaseUrl: viaProxy.toString(), databaseTimeoutMs: 400 });
  return {
    h,
    simClock,
    breakStore: () => proxy.stall(),
    healStore: () => proxy.heal(),
    cleanup: async () => {
      await proxy.close();
      await h.stop();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const stores: [string, () => Promise<Fixture>][] = [['SQLite', sqliteFixture]];
if (pgUrl) stores.push(['PostgreSQL', () => postgresFixture(pgUrl)]);
else console.warn('record-pending PostgreSQL case skipped: set HARBOR_TEST_DATABASE_URL');

describe.each(stores)('%s fails after a successful write', (_name, open) => {
  let f: Fixture;
  afterEach(async () => {
    await f.cleanup();
  });

  it('says "applied, recording pending" without buttons, and ends Done once the store is back', async () => {
    f = await open();
    const { h, simClock } = f;
    await h.slash('promote game-server:1.2.0 from dev to staging');
    const preview = h.lastMessage();
    // The API holds the write while the store goes away under the running bot.
    h.sim.setFaults([{ method: 'POST', path: '/api/**', latencyMs: 40_000 }]);
    await postSigned(h.eventsUrl, SIGNING_SECRET, clickBody(h.slack, preview, CHANGE_ACTIONS.confirm));
    await simClock.whenSleeping();
    f.breakStore();
    h.sim.clearFaults();
    await simClock.advance(40_000);
    await h.settle();

    expect(h.sim.countRequests('POST', PROMOTIONS)).toBe(1);
    const during = h.slack.message(TEST_CHANNEL.id, preview.ts);
    expect(buttonIds(during)).toEqual([]);
    expect(shown(during)).toMatch(/Done/);
    expect(shown(during)).toMatch(/recording is pending/);
    const told = h.ephemeralTexts(ALICE).join('\n');
    expect(told).not.toMatch(/Try again/);

    f.healStore();
    await h.running.core.housekeepNow();
    const after = h.slack.message(TEST_CHANNEL.id, preview.ts);
    expect(shown(after)).toMatch(/Done/);
    expect(shown(after)).not.toMatch(/pending/);
    expect(buttonIds(after)).toEqual([]);
    const [change] = await h.running.core.store.listChanges({});
    expect(change?.status).toBe('succeeded');
    const audit = await h.running.core.store.queryAudit({ changeId: change?.id, actions: ['apply'] });
    expect(audit.map((e) => e.outcome)).toEqual(['succeeded']);
    // Nothing was applied twice.
    expect(h.sim.countRequests('POST', PROMOTIONS)).toBe(1);
  });
});
