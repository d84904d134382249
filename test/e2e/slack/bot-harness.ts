/**
 * The whole bot, started exactly as main.ts starts it (startBot), with the
 * project's API simulator as the hosting API and the Slack stand-in as Slack.
 * Tests talk to it only as Slack would: real signed HTTP requests into Bolt's
 * HTTP receiver. `settle()` waits (event-driven, no sleeping) until the bot
 * has finished the work those requests started.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchFunction } from '@slack/web-api';
import { type Config, readConfig } from '../../../src/config/config.js';
import type { Clock } from '../../../src/runtime/clock.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { demoData, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import type { ViewStateValue } from '../../../src/slack/modals/types.js';
import { type RunningBot, startBot } from '../../../src/startup/start-bot.js';
import { TEST_BOT, TEST_CHANNEL, type TestUser } from '../../../src/workspace/identity.js';
import {
  blockActionsPayload,
  interactionBody,
  postSigned,
  type SignedResponse,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../../src/workspace/signing.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../../../src/workspace/stand-in.js';

export const SIGNING_SECRET = 'e2e-signing-secret-0123456789';
export const ALICE: TestUser = { id: 'U0ALICE', name: 'alice' };
export const BOB: TestUser = { id: 'U0BOB', name: 'bob' };
export const CAROL: TestUser = { id: 'U0CAROL', name: 'carol' };
export const SRE_GROUP = 'S0SRE';

/** A policy like a studio's: dev open, promotions into prod and prod deletes need an SRE's approval. */
export const E2E_POLICY = `
version: 1
defaults:
  expires: 30m
rules:
  - name: reads
    operations: [images.list, vessels.list, formation.show, region.show, sites.list, logs.read, armadas.list, armada.show, armadaset.show]
  - name: prod-promotions
    operations: [image.promote]
    target: { branch: prod }
    approval: { required: 1, approvers: { groups: [${SRE_GROUP}] } }
  - name: prod-changes
    operations: ['*']
    target: { environment: prod }
    approval: { required: 1, approvers: { groups: [${SRE_GROUP}] } }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

/**
 * The bot's Slack budget in most tests: the same gates, bursts and order as in production,
 * at a hundred times the rate. At Slack's real pace (45 edits a minute, a post a second per
 * channel) a release flow spends most of its time waiting for its slot, and the stand-in does
 * not enforce limits unless a test asks it to. Tests about the pace pass `slackPace: 'real'`.
 */
export const FAST_SLACK_BUDGET = {
  updatesPerMinute: 4500,
  postsPerMinute: 10_000,
  postSpacingMs: 10,
} as const;

export interface BotHarness {
  sim: Simulator;
  /** The bot's data dir (its SQLite file, its policy): another replica on the same store opens it too. */
  dataDir: string;
  slack: SlackStandIn;
  running: RunningBot;
  eventsUrl: string;
  logs: ReturnType<typeof createMemoryLogger>;
  /** Sends `/harbor <text>` as `user` and waits for the bot to finish answering. */
  slash(text: string, user?: TestUser): Promise<SignedResponse>;
  /** Clicks a button on a message the stand-in holds, as `user`, and waits for the bot. */
  click(message: StoredMessage, actionId: string, user?: TestUser): Promise<SignedResponse>;
  /** Submits the modal `viewId` (as the stand-in holds it) with `values`, and waits for the bot. */
  submit(
    viewId: string,
    values: Record<string, Record<string, ViewStateValue>>,
    user?: TestUser,
  ): Promise<SignedResponse>;
  /** Sends an interaction payload as is (e.g. a select change inside a modal). */
  interact(payload: object): Promise<SignedResponse>;
  /** Waits until the bot has finished all request work (follow-ups excluded). */
  settle(): Promise<void>;
  /**
   * Resolves once none of the bot's Web API calls is under way. A test that moves the Slack
   * clock waits for it first, so each call is recorded at the clock time it was made.
   */
  slackCallsDone(): Promise<void>;
  /** The latest top-level bot message in the test channel. */
  lastMessage(): StoredMessage;
  /** Ephemeral texts sent to `user` (response_url or postEphemeral), oldest first. */
  ephemeralTexts(user?: TestUser): string[];
  /**
   * Stops the bot (not the simulator or Slack) and starts a new one on the same
   * data dir and config, as a deploy or crash would; `running` and `eventsUrl`
   * then point at the new one.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The bot's config for an e2e run against `sim` and the stand-in, with the policy written into `dataDir`. */
export async function e2eConfig(o: {
  slackApiUrl: string;
  sim: Simulator;
  dataDir: string;
  policy?: string;
  replicaId?: string;
  databaseUrl?: string;
  /** An app-level token: the bot runs in Socket Mode (its probes on 127.0.0.1 only). */
  appToken?: string;
}): Promise<Config> {
  const policyPath = join(o.dataDir, 'policy.yml');
  await writeFile(policyPath, o.policy ?? E2E_POLICY);
  const config = readConfig({
    SLACK_BOT_TOKEN: TEST_BOT.token,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: o.slackApiUrl,
    PORT: '0',
    GAMEFABRIC_URL: o.sim.url,
    GAMEFABRIC_TOKEN: o.sim.token,
    HARBOR_DATA_DIR: o.dataDir,
    HARBOR_POLICY: policyPath,
    HARBOR_REPLICA_ID: o.replicaId ?? 'e2e',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...(o.appToken ? { SLACK_APP_TOKEN: o.appToken, HARBOR_LISTEN_HOST: '127.0.0.1' } : {}),
  });
  if (!config.ok) throw new Error(config.problems.join('\n'));
  return config.config;
}

/** A signed-ready `/harbor <text>` body from `user` in the test channel, answerable through the stand-in. */
export function slashBody(slack: SlackStandIn, text: string, user: TestUser = ALICE): string {
  return slashCommandBody({
    text,
    user_id: user.id,
    user_name: user.name,
    response_url: slack.responseUrl({ channel: TEST_CHANNEL.id, user: user.id }),
    trigger_id: slack.triggerId(),
  });
}

/** A signed-ready click on `actionId` of `message` (as the stand-in holds it) by `user`. */
export function clickBody(
  slack: SlackStandIn,
  message: StoredMessage,
  actionId: string,
  user: TestUser = ALICE,
): string {
  return interactionBody(
    blockActionsPayload({
      actionId,
      user,
      channel: TEST_CHANNEL,
      message,
      responseUrl: slack.responseUrl({ channel: TEST_CHANNEL.id, user: user.id, messageTs: message.ts }),
      triggerId: slack.triggerId(),
    }),
  );
}

/** Starts simulator, stand-in and bot. */
export async function startBotHarness(
  options: {
    policy?: string;
    logReplay?: boolean;
    /** Armada status with replica counts (the simulator's default) or without (the public shape). */
    fleetCounts?: boolean;
    /** Serve ArmadaGameServerStates (off by default, as the simulator's own default). */
    serverStates?: boolean;
    clock?: Clock;
    /** Slack plays an org-wide Enterprise Grid install (org token: group lookups need team_id). */
    enterpriseInstall?: boolean;
    simClock?: Clock;
    /** The Slack stand-in's time (call records, rate windows), for tests that count calls a minute. */
    slackClock?: Clock;
    /** Awaited before each of the bot's Web API calls is sent: a slow Slack (say, a ManualClock's sleep). */
    slackDelay?: () => Promise<void>;
    /** PostgreSQL instead of the embedded store (e.g. through a TCP proxy a test can break). */
    databaseUrl?: string;
    databaseTimeoutMs?: number;
    /** Changes to the demo world before the simulator starts (say, an extra image in a branch). */
    world?: (data: ReturnType<typeof demoData>) => void;
    /** Work pieces that may run at once behind acks, and how many more may wait (overload tests). */
    workConcurrency?: number;
    queueLimit?: number;
    /** How long a command's answer may take before "Working on it…" (startBot's default: 1 s). */
    workingNoticeMs?: number;
    /** The outbox reader's clock (a ManualClock: the bot reads the outbox only when housekept). */
    outboxClock?: Clock;
    /** How long after its apply housekeeping resumes a follow-up nobody runs (default: the lease TTL, 30 s). */
    resumeFollowAfterMs?: number;
    /** The watch loop's clock and whether it is left for the test to tick (watches). */
    watch?: { clock?: Clock; manual?: boolean };
    /**
     * The bot's own Slack budget: `fast` (default) or Slack's real pace (`real`: 45 edits and
     * 100 posts a minute, one post a second per channel), for tests about that pace.
     */
    slackPace?: 'fast' | 'real';
  } = {},
): Promise<BotHarness> {
  // The demo world plus an empty `staging` branch, so promotions without approval have somewhere to go.
  const data = demoData();
  data.branches.staging = [];
  options.world?.(data);
  // Lifecycle steps and termination as short as the follow-up's poll, so "is gone" comes in milliseconds.
  const sim = await startSimulator({
    port: 0,
    stepMs: 5,
    terminationMs: 5,
    data,
    logReplay: options.logReplay ?? false,
    ...(options.fleetCounts !== undefined ? { fleetCounts: options.fleetCounts } : {}),
    ...(options.serverStates !== undefined ? { serverStates: options.serverStates } : {}),
    // A test that holds a write (a latency fault) moves the simulator's time itself.
    ...(options.simClock ? { clock: options.simClock } : {}),
  });
  const slack = await startSlackStandIn({
    token: TEST_BOT.token,
    usergroups: { [SRE_GROUP]: [BOB.id, CAROL.id] },
    ...(options.slackClock ? { clock: options.slackClock } : {}),
    ...(options.enterpriseInstall ? { enterpriseInstall: true } : {}),
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'harbor-e2e-'));
  const config = await e2eConfig({
    slackApiUrl: slack.apiUrl,
    sim,
    dataDir,
    policy: options.policy,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
  });
  if (options.databaseTimeoutMs) config.databaseTimeoutMs = options.databaseTimeoutMs;
  const logs = createMemoryLogger();
  // The bot's Web API calls, counted (after they drew their slot), for slackCallsDone().
  let inflight = 0;
  const drained: (() => void)[] = [];
  const countedFetch: FetchFunction = async (url, init) => {
    inflight += 1;
    try {
      await options.slackDelay?.();
      return await (globalThis.fetch(url, init as RequestInit) as ReturnType<FetchFunction>);
    } finally {
      inflight -= 1;
      if (inflight === 0) for (const wake of drained.splice(0)) wake();
    }
  };
  const boot = () =>
    startBot(config, logs, {
      // The bot's own time (expiry, dates it shows); Slack and the simulator keep the real one.
      ...(options.clock ? { clock: options.clock } : {}),
      clientOptions: { retryConfig: { retries: 0 }, fetch: countedFetch },
      follow: {
        pollMs: 10,
        timeoutMs: 10_000,
        ...(options.resumeFollowAfterMs !== undefined ? { resumeAfterMs: options.resumeFollowAfterMs } : {}),
      },
      ...(options.slackPace === 'real' ? {} : { tails: { budget: FAST_SLACK_BUDGET } }),
      ...(options.workConcurrency ? { workConcurrency: options.workConcurrency } : {}),
      ...(options.queueLimit !== undefined ? { queueLimit: options.queueLimit } : {}),
      ...(options.watch ? { watch: options.watch } : {}),
      ...(options.outboxClock ? { outbox: { clock: options.outboxClock } } : {}),
      ...(options.workingNoticeMs !== undefined ? { workingNoticeMs: options.workingNoticeMs } : {}),
    });
  // A bot that cannot start (a bad policy, say) must not leave the stand-ins listening: jest would never exit.
  let running = await boot().catch(async (err: unknown) => {
    await Promise.allSettled([sim.stop(), slack.stop()]);
    throw err;
  });
  const urlOf = (bot: RunningBot) => `http://127.0.0.1:${bot.port}/slack/events`;
  let eventsUrl = urlOf(running);
  const settle = () => running.bot.idle();
  const send = async (body: string) => {
    const res = await postSigned(eventsUrl, SIGNING_SECRET, body);
    await settle();
    return res;
  };

  return {
    sim,
    dataDir,
    slack,
    get running() {
      return running;
    },
    get eventsUrl() {
      return eventsUrl;
    },
    logs,
    settle,
    slackCallsDone: async () => {
      // What the gateway let through has drawn its slot and been sent, then every fetch is answered.
      await running.slackBudget.sent();
      if (inflight > 0) await new Promise<void>((resolve) => drained.push(resolve));
    },
    slash: (text, user = ALICE) => send(slashBody(slack, text, user)),
    click: (message, actionId, user = ALICE) => send(clickBody(slack, message, actionId, user)),
    submit: (viewId, values, user = ALICE) => {
      const view = slack.view(viewId);
      if (!view) throw new Error(`no view ${viewId}`);
      return send(interactionBody(viewSubmissionPayload({ view, values: values as never, user })));
    },
    interact: (payload) => send(interactionBody(payload)),
    lastMessage: () => {
      const top = slack.channelMessages(TEST_CHANNEL.id).filter((m) => !m.threadTs || m.threadTs === m.ts);
      const last = top.at(-1);
      if (!last) throw new Error('the bot posted nothing in the channel');
      return last;
    },
    ephemeralTexts: (user = ALICE) =>
      slack
        .ephemerals()
        .filter((e) => e.user === user.id)
        .map((e) => e.text ?? ''),
    restart: async () => {
      await running.stop();
      running = await boot();
      eventsUrl = urlOf(running);
    },
    stop: async () => {
      await running.stop();
      await slack.stop();
      await sim.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
