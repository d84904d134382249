/**
 * Issue 22, point 10: Socket Mode under replicas. Three bots, started as
 * main.ts starts them (startBot) with an app-level token, connect to the
 * Slack stand-in's Socket Mode server over loopback WebSockets and share one
 * store (a SQLite file; PostgreSQL too when HARBOR_TEST_DATABASE_URL is set,
 * else reported skipped). A burst of Confirm clicks on three pending changes
 * is spread over their three connections, every replica getting clicks on
 * every change: each envelope is acked, each change is applied once at the
 * simulated API, and each message ends Done with no buttons.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { demoData, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { type RunningBot, startBot } from '../../../src/startup/start-bot.js';
import { TEST_BOT, TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { blockActionsPayload, slashCommandFields } from '../../../src/workspace/signing.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { freshSchema, pgUrl, storeKinds } from '../../changes/harness.js';
import { ALICE, e2eConfig, SRE_GROUP } from './bot-harness.js';
import { buttonIds } from './harness-extras.js';

if (!pgUrl) console.warn('Socket Mode replicas on PostgreSQL skipped: set HARBOR_TEST_DATABASE_URL');

const APP_TOKEN = 'xapp-1-A0HARBOR-1-socket-replicas';
const REPLICAS = ['socket-a', 'socket-b', 'socket-c'] as const;
const TAGS = ['1.2.0', '1.1.0', '1.0.0'] as const;
/** Clicks per change: four on each replica. */
const CLICKS_PER_CHANGE = 12;
const PROMOTIONS = '/api/container/v1/imagepromotions';

interface World {
  sim: Simulator;
  slack: SlackStandIn;
  bots: RunningBot[];
  logs: ReturnType<typeof createMemoryLogger>[];
  stop(): Promise<void>;
}

/** The store's settings for every replica, and how to remove it afterwards. */
async function sharedStore(
  kind: 'sqlite' | 'postgres',
): Promise<{ databaseUrl?: string; drop(): Promise<void> }> {
  // SQLite: the file in the data dir all three share.
  if (kind === 'sqlite') return { drop: async () => {} };
  const { schema, drop } = freshSchema();
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  // Every replica's connections use the fresh schema (search_path in the startup options).
  const url = new URL(pgUrl as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { databaseUrl: url.toString(), drop };
}

async function startWorld(kind: 'sqlite' | 'postgres'): Promise<World> {
  const data = demoData();
  data.branches.staging = [];
  const sim = await startSimulator({ port: 0, stepMs: 5, terminationMs: 5, data });
  const slack = await startSlackStandIn({ token: TEST_BOT.token, usergroups: { [SRE_GROUP]: [] } });
  const dataDir = await mkdtemp(join(tmpdir(), 'harbor-socket-replicas-'));
  const store = await sharedStore(kind);
  const bots: RunningBot[] = [];
  const logs: ReturnType<typeof createMemoryLogger>[] = [];
  const stop = async () => {
    // Bots first: each closes its socket while the stand-in still answers the closing handshake.
    await Promise.allSettled(bots.map((bot) => bot.stop()));
    await slack.stop();
    await sim.stop();
    await store.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    // One after another: the first creates the schema, the others find it.
    for (const replicaId of REPLICAS) {
      const config = await e2eConfig({
        slackApiUrl: slack.apiUrl,
        sim,
        dataDir,
        replicaId,
        appToken: APP_TOKEN,
        ...(store.databaseUrl ? { databaseUrl: store.databaseUrl } : {}),
      });
      const log = createMemoryLogger();
      logs.push(log);
      // No retries: a call in flight when the stand-in stops must not outlive the test.
      bots.push(await startBot(config, log, { clientOptions: { retryConfig: { retries: 0 } } }));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { sim, slack, bots, logs, stop };
}

/** Resolves once `cond` holds, checked after every change the stand-in answers or makes. */
function until(slack: SlackStandIn, cond: () => boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = () => {
      if (!cond()) return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = slack.onChange(check);
    check();
  });
}

/** Requests `promote game-server:<tag> from dev to staging` over Socket Mode; returns the preview. */
async function requestPromotion(w: World, tag: string): Promise<StoredMessage> {
  const text = `promote game-server:${tag} from dev to staging`;
  const ack = await w.slack.socketMode.deliver(
    'slash_commands',
    slashCommandFields({
      text,
      user_id: ALICE.id,
      user_name: ALICE.name,
      response_url: w.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
      trigger_id: w.slack.triggerId(),
    }),
    { appToken: APP_TOKEN },
  );
  expect(ack.envelopeId).toMatch(/^env-/);
  const posted = await w.slack.waitFor(
    (c) => c.method === 'chat.postMessage' && JSON.stringify(c.body).includes(`game-server:${tag}`),
    { timeoutMs: 10_000 },
  );
  const ts = (posted.response as { ts?: string }).ts ?? '';
  const preview = w.slack.message(TEST_CHANNEL.id, ts);
  if (!preview) throw new Error(`no preview for ${tag}`);
  expect(buttonIds(preview)).toContain(CHANGE_ACTIONS.confirm);
  return preview;
}

function confirmClick(w: World, preview: StoredMessage) {
  return blockActionsPayload({
    actionId: CHANGE_ACTIONS.confirm,
    user: ALICE,
    channel: TEST_CHANNEL,
    message: preview,
    responseUrl: w.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id, messageTs: preview.ts }),
    triggerId: w.slack.triggerId(),
  });
}

describe.each(storeKinds)('three Socket Mode replicas on one %s store', (kind) => {
  let world: World | undefined;
  afterEach(async () => {
    await world?.stop();
    world = undefined;
  });

  it('apply each change once under a burst of Confirm clicks spread over their connections', async () => {
    const w = await startWorld(kind);
    world = w;
    await w.slack.socketMode.waitForConnections(REPLICAS.length, APP_TOKEN);
    expect(w.slack.socketMode.connections(APP_TOKEN)).toBe(3);

    const previews: StoredMessage[] = [];
    for (const tag of TAGS) previews.push(await requestPromotion(w, tag));
    expect(w.sim.countRequests('POST', PROMOTIONS)).toBe(0);

    // Envelope i goes to connection i mod 3; the change it confirms shifts every three, so each
    // replica gets clicks on every change, interleaved.
    const clicks = Array.from({ length: CLICKS_PER_CHANGE * TAGS.length }, (_, i) => {
      const change = (i + Math.floor(i / TAGS.length)) % TAGS.length;
      return { change, payload: confirmClick(w, previews[change] as StoredMessage) };
    });
    const acks = await Promise.all(
      clicks.map((c) => w.slack.socketMode.deliver('interactive', c.payload, { appToken: APP_TOKEN })),
    );

    // Every envelope acked, once, on the connection that carried it.
    expect(new Set(acks.map((a) => a.envelopeId)).size).toBe(clicks.length);
    for (let change = 0; change < TAGS.length; change++) {
      const carriers = new Set(acks.filter((_, i) => clicks[i]?.change === change).map((a) => a.connection));
      expect(carriers.size).toBe(REPLICAS.length);
    }

    const finalText = (i: number) => w.slack.message(TEST_CHANNEL.id, previews[i]?.ts ?? '')?.text ?? '';
    await until(w.slack, () => TAGS.every((_, i) => /^Done/.test(finalText(i))));
    // The losing clicks' work, on whichever replica, is over before anything is counted.
    for (const bot of w.bots) await bot.bot.idle();

    expect(w.sim.countRequests('POST', PROMOTIONS)).toBe(TAGS.length);
    const staged = w.sim.state.listImages('staging').filter((i) => i.spec.image === 'game-server');
    expect(staged.map((i) => i.spec.tag).sort()).toEqual([...TAGS].sort());
    TAGS.forEach((tag, i) => {
      const message = w.slack.message(TEST_CHANNEL.id, previews[i]?.ts ?? '');
      expect(message?.text).toBe(`Done: Promoted game-server:${tag} from dev to staging`);
      expect(buttonIds(message)).toEqual([]);
      expect(JSON.stringify(message?.blocks)).toContain(ALICE.id);
    });
    // A double click by the one who applied it says nothing more (the message in view does).
    expect(w.slack.ephemerals().filter((e) => e.user === ALICE.id)).toEqual([]);
    for (const log of w.logs) expect(log.lines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });
});
