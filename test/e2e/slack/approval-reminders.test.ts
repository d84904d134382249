/**
 * Issue 18.2: `approvals` lists what the asker can act on and, apart from it,
 * their own requests that wait on others (who is asked, when each expires).
 * Approvers are reminded once before a request expires, and the requester is
 * told once when it expired: claimed in the store, so a second pass, a
 * restart or a second replica sends nothing again; a reminder Slack refused
 * is sent by the next pass. On SQLite and, when HARBOR_TEST_DATABASE_URL is
 * set, on PostgreSQL. The bot's clock is a ManualClock; housekeeping passes
 * are run by the test.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ManualClock } from '../../../src/runtime/clock.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, SRE_GROUP, startBotHarness } from './bot-harness.js';
import { current, shown } from './harness-extras.js';

const pgUrl = process.env.HARBOR_TEST_DATABASE_URL;
if (!pgUrl) console.warn('PostgreSQL approval-reminder tests skipped: set HARBOR_TEST_DATABASE_URL');

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 2, 1, 9, 0);

interface Fixture {
  h: BotHarness;
  clock: ManualClock;
  cleanup(): Promise<void>;
}

async function sqliteFixture(): Promise<Fixture> {
  const clock = new ManualClock(T0);
  const h = await startBotHarness({ clock });
  return { h, clock, cleanup: () => h.stop() };
}

async function postgresFixture(url: string): Promise<Fixture> {
  const schema = `remind_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const inSchema = new URL(url);
  inSchema.searchParams.set('options', `-c search_path=${schema}`);
  const clock = new ManualClock(T0);
  const h = await startBotHarness({ clock, databaseUrl: inSchema.toString() });
  return {
    h,
    clock,
    cleanup: async () => {
      await h.stop();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const stores: [string, () => Promise<Fixture>][] = [['SQLite', sqliteFixture]];
if (pgUrl) stores.push(['PostgreSQL', () => postgresFixture(pgUrl)]);

describe.each(stores)('approval reminders and expiry notices (%s)', (_name, start) => {
  let f: Fixture;
  afterEach(async () => {
    await f.cleanup();
  });

  /** ALICE asks for a prod promotion (30 min to expire, an SRE must approve); its channel message. */
  async function requestProdPromotion(): Promise<StoredMessage> {
    await f.h.slash('promote game-server:1.2.0 from dev to prod');
    const message = f.h.lastMessage();
    expect(message.text).toMatch(/^Waiting for approval/);
    return message;
  }

  const replies = (parent: StoredMessage, pattern: RegExp) =>
    f.h.slack
      .thread(TEST_CHANNEL.id, parent.ts)
      .filter((m) => m.ts !== parent.ts && pattern.test(m.text ?? ''));

  async function pass(): Promise<void> {
    await f.h.running.core.housekeepNow();
    await f.h.settle();
  }

  it('lists what the asker can act on apart from their own requests that wait on others', async () => {
    f = await start();
    await requestProdPromotion();
    await f.h.slash('approvals', ALICE);
    const aliceList = f.h.slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1);
    expect(shown(aliceList)).toContain('Nothing is waiting for you');
    expect(shown(aliceList)).toContain('Your requests waiting on others (1)');
    expect(shown(aliceList)).toContain('Promote game-server:1.2.0');
    expect(shown(aliceList)).toContain(`asks <!subteam^${SRE_GROUP}>`);
    expect(shown(aliceList)).toContain('0 of 1 approval so far');
    expect(shown(aliceList)).toContain('(in 30 min)');

    await f.h.slash('approvals', BOB);
    const bobList = f.h.slack
      .ephemerals()
      .filter((e) => e.user === BOB.id)
      .at(-1);
    expect(bobList?.text).toBe('1 change waiting for your approval');
    expect(shown(bobList)).not.toContain('waiting on others');
  });

  it('reminds the approvers once before the request expires, even after a restart', async () => {
    f = await start();
    const prod = await requestProdPromotion();
    await f.clock.advance(10 * MINUTE);
    await pass();
    expect(replies(prod, /reminder/)).toHaveLength(0);

    // A quarter of its 30 minutes is left.
    await f.clock.advance(13 * MINUTE);
    await pass();
    const reminders = replies(prod, /reminder/);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.text).toContain(`<!subteam^${SRE_GROUP}>`);
    expect(reminders[0]?.text).toContain('(in 7 min)');

    await pass();
    await f.h.restart();
    await pass();
    expect(replies(prod, /reminder/)).toHaveLength(1);
  });

  it('sends a reminder Slack refused on the next pass', async () => {
    f = await start();
    const prod = await requestProdPromotion();
    await f.clock.advance(25 * MINUTE);
    f.h.slack.refuseNext('chat.postMessage', 'ratelimited');
    await pass();
    expect(replies(prod, /reminder/)).toHaveLength(0);
    await pass();
    expect(replies(prod, /reminder/)).toHaveLength(1);
  });

  it('tells the requester once when the request expired, after its message says so', async () => {
    f = await start();
    const prod = await requestProdPromotion();
    await f.clock.advance(31 * MINUTE);
    await pass();
    expect(current(f.h, prod).text).toMatch(/^Expired/);
    const told = replies(prod, /your request .* expired/);
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain(`<@${ALICE.id}>, your request`);
    expect(told[0]?.text).toContain('Nothing was applied');
    await pass();
    await f.h.restart();
    await pass();
    expect(replies(prod, /your request .* expired/)).toHaveLength(1);
  });

  it('does not tell the requester of a confirm-only change that expired', async () => {
    f = await start();
    await f.h.slash('promote game-server:1.1.0 from dev to staging');
    const staging = f.h.lastMessage();
    await f.clock.advance(31 * MINUTE);
    await pass();
    expect(replies(staging, /your request .* expired/)).toHaveLength(0);
  });
});
