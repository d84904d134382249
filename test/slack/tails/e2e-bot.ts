/**
 * The whole bot for live-tail end-to-end tests: started by startBot exactly
 * as main.ts does, against the API simulator and the Slack stand-in, with
 * real signed requests in. Unlike the shared e2e harness, the tails run on a
 * ManualClock (the stand-in's clock too, so its rate-limit windows and call
 * times are on the budget's clock), and the simulator on one of its own.
 * Tails outlive requests, so `pumpUntil` moves the tail clock in steps and
 * lets I/O run until what the test waits for has happened.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchFunction } from '@slack/web-api';
import type pg from 'pg';
import { ManualClock } from '../../../src/runtime/clock.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { demoData, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type RunningBot, type StartBotOptions, startBot } from '../../../src/startup/start-bot.js';
import type { TailRecord } from '../../../src/store/types.js';
import { TEST_BOT, TEST_CHANNEL, type TestUser } from '../../../src/workspace/identity.js';
import { postSigned, type SignedResponse } from '../../../src/workspace/signing.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { ALICE, clickBody, e2eConfig, SIGNING_SECRET, slashBody } from '../../e2e/slack/bot-harness.js';

export interface TailBotOptions {
  /** HARBOR_REPLICA_ID (default `e2e`). */
  replicaId?: string;
  /** SQLite directory to use (and keep); default a fresh temporary one. */
  dataDir?: string;
  /** DATABASE_URL: PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** Extra Vessels `load-0` … in the `lobby` Formation of `dev`. */
  extraVessels?: number;
  /** Tail settings on top of the harness's (ManualClock, no recent lines, top-of-range jitter). */
  tails?: StartBotOptions['tails'];
  /** Start of the tail clock (default now). */
  clockStart?: number;
  /** Parts shared with other bots (replicas in one test): used as given, left running by stop(). */
  shared?: TailBotShared;
}

/** What several bots (replicas) share: one hosting API, one Slack workspace, one tail clock. */
export interface TailBotShared {
  sim: Simulator;
  simClock: ManualClock;
  clock: ManualClock;
  slack: SlackStandIn;
}

export interface TailBot {
  sim: Simulator;
  simClock: ManualClock;
  /** The tails' clock (and the stand-in's). */
  clock: ManualClock;
  slack: SlackStandIn;
  running: RunningBot;
  logs: ReturnType<typeof createMemoryLogger>;
  dataDir: string;
  /** Sends `/harbor <text>`; the ack comes back at once, the work goes on (see settle). */
  slash(text: string, user?: TestUser): Promise<SignedResponse>;
  /** Clicks a button of a message the stand-in holds. */
  click(message: StoredMessage, actionId: string, user?: TestUser): Promise<SignedResponse>;
  /** Pumps the tail clock until the bot has finished the work requests started (tails excluded). */
  settle(): Promise<void>;
  /** Tail calls to Slack under way now (the clock waits for them, so their times are exact). */
  inflight(): number;
  /** Whether a tail call to Slack or a draw from the shared budget in the store is under way. */
  busy(): boolean;
  /** Resolves once no tail call nor budget draw is under way (an event, not a count of turns). */
  quiesce(): Promise<void>;
  /** Pumps the tail clock (steps of `stepMs`, I/O in between) until `cond` holds. */
  pumpUntil(cond: () => boolean | Promise<boolean>, what: string, stepMs?: number): Promise<void>;
  /** The tail records in the bot's store, oldest first. */
  tails(): Promise<TailRecord[]>;
  /** The latest version of a message in the test channel. */
  message(ts: string): StoredMessage;
  /** Replies in a thread of the test channel, oldest first. */
  thread(threadTs: string): StoredMessage[];
  stop(): Promise<void>;
}

/** One event-loop turn, I/O included. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The simulator (with `extraVessels` more Vessels), the stand-in and their clocks, for one bot or several. */
export async function startTailWorld(
  options: Pick<TailBotOptions, 'extraVessels' | 'clockStart'> = {},
): Promise<TailBotShared> {
  const data = demoData();
  const lobby = data.environments.dev?.formations?.[0];
  for (let i = 0; i < (options.extraVessels ?? 0); i++) {
    lobby?.spec.vessels.push({ name: `load-${i}`, region: 'eu-central' });
  }
  const simClock = new ManualClock(options.clockStart ?? Date.now());
  const sim = await startSimulator({ port: 0, clock: simClock, stepMs: 5, logLinesPerSecond: 0, data });
  const clock = new ManualClock(options.clockStart ?? Date.now());
  const slack = await startSlackStandIn({ token: TEST_BOT.token, clock });
  return { sim, simClock, clock, slack };
}

/** Starts simulator, stand-in and bot (or only the bot, on `shared` parts). */
export async function startTailBot(options: TailBotOptions = {}): Promise<TailBot> {
  const { sim, simClock, clock, slack } = options.shared ?? (await startTailWorld(options));
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'harbor-tails-')));
  const config = await e2eConfig({
    slackApiUrl: slack.apiUrl,
    sim,
    dataDir,
    ...(options.replicaId ? { replicaId: options.replicaId } : {}),
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
  });
  const logs = createMemoryLogger();
  // Every call of the bot's (its gateway's client: tails, previews, results), counted, so the clock
  // never moves while a call is under way.
  let inflight = 0;
  const drained: (() => void)[] = [];
  const counted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      inflight += 1;
      try {
        return await call(...args);
      } finally {
        inflight -= 1;
        if (inflight === 0) for (const wake of drained.splice(0)) wake();
      }
    };
  const botFetch: FetchFunction = (url, init) =>
    counted(() => globalThis.fetch(url, init as RequestInit) as ReturnType<FetchFunction>)();
  const running = await startBot(config, logs, {
    clientOptions: { retryConfig: { retries: 0 }, fetch: botFetch },
    tails: { clock, initialTailLines: 0, random: () => 1, ...options.tails },
  });
  const eventsUrl = `http://127.0.0.1:${running.port}/slack/events`;

  // PostgreSQL answers over a socket: a query under way (a tail saving its progress) is waited for too.
  const pool = (running.core.store as { pool?: pg.Pool }).pool;
  const storeBusy = () => pool !== undefined && (pool.totalCount > pool.idleCount || pool.waitingCount > 0);
  const busy = () => inflight > 0 || running.tails.budgetsBusy() || running.slackBudget.busy() || storeBusy();
  const quiesce = async () => {
    while (busy()) {
      await running.tails.budgetsIdle();
      await running.slackBudget.idle();
      if (inflight > 0) await new Promise<void>((resolve) => drained.push(resolve));
      if (pool && storeBusy()) await new Promise<void>((resolve) => pool.once('release', () => resolve()));
      // What the answers started (the next query, call or slot) counts before busy() is asked again.
      await turn();
    }
  };
  const pumpUntil = async (cond: () => boolean | Promise<boolean>, what: string, stepMs = 250) => {
    for (let step = 0; step < 4000; step++) {
      for (let i = 0; i < 20; i++) {
        if (await cond()) return;
        await turn();
      }
      await quiesce();
      if (await cond()) return;
      await clock.advance(stepMs);
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const message = (ts: string) => {
    const found = slack.message(TEST_CHANNEL.id, ts);
    if (!found) throw new Error(`no message ${ts}`);
    return found;
  };

  return {
    sim,
    simClock,
    clock,
    slack,
    running,
    logs,
    dataDir,
    slash: (text, user = ALICE) => postSigned(eventsUrl, SIGNING_SECRET, slashBody(slack, text, user)),
    click: (m, actionId, user = ALICE) =>
      postSigned(eventsUrl, SIGNING_SECRET, clickBody(slack, m, actionId, user)),
    settle: async () => {
      let idle = false;
      void running.bot.idle().then(() => {
        idle = true;
      });
      await pumpUntil(() => idle, 'the bot to finish its requests');
    },
    inflight: () => inflight,
    busy,
    quiesce,
    pumpUntil,
    tails: () => running.core.store.listTails({}),
    message,
    thread: (threadTs) => slack.thread(TEST_CHANNEL.id, threadTs),
    stop: async () => {
      await running.stop();
      if (!options.shared) {
        await slack.stop();
        await sim.stop();
      }
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
