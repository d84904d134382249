/**
 * Wires the whole bot from a config: metrics, core (hosting API, store,
 * policy, change engine), the Slack bot, and housekeeping that rewrites the
 * messages of changes it closes. main.ts and the end-to-end tests both start
 * the bot through here, so the tests run exactly what production runs.
 */

import type { CustomRoute } from '@slack/bolt';
import type { WebClientOptions } from '@slack/web-api';
import { createChangeEvents } from '../changes/events.js';
import { Reads } from '../changes/reads.js';
import type { Config } from '../config/config.js';
import { Freezes } from '../freezes/manage.js';
import { READ_BUDGET_DEFAULTS, ReadBudget } from '../read-budget/read-budget.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import { Events, type ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import { createMetrics, type Metrics } from '../runtime/metrics.js';
import { createSlackBot, type SlackBot } from '../slack/bot.js';
import { SlackGateway } from '../slack/gateway/gateway.js';
import { SLACK_POLICY_NAMES } from '../slack/render/policy-names.js';
import { countedFetch } from '../slack/runtime/counted-fetch.js';
import { SLACK_CLIENT_RETRY } from '../slack/runtime/slack-fetch.js';
import { type BotIdentity, checkBotToken } from '../slack/runtime/token-check.js';
import { slackGroupResolver } from '../slack/runtime/user-groups.js';
import { gatewayTailSlack } from '../slack/tails/slack-calls.js';
import { createTailService, type SlackTailServiceOptions } from '../slack/tails/surface.js';
import type { ReplicaTailService } from '../tails/service.js';
import type { Watcher } from '../watches/watcher.js';
import { buildInfo } from './build-info.js';
import { type Core, startCore } from './core.js';
import { wireWatches } from './watches.js';

export interface RunningBot {
  core: Core;
  bot: SlackBot;
  /** This replica's live tails. */
  tails: ReplicaTailService;
  /** This replica's watch loop (tests tick it by hand when `watch.manual`). */
  watcher: Watcher;
  /**
   * The workspaces' Slack budgets shared through the store: whether a store call of theirs is under
   * way, and how many of the bot's own messages wait on the budget's clock for a slot (tests).
   */
  slackBudget: Pick<SlackGateway, 'busy' | 'idle' | 'waiting' | 'asked' | 'until' | 'sent'>;
  metrics: Metrics;
  /** The bound HTTP port (HTTP mode, or the health port in Socket Mode). */
  port: number | undefined;
  /** The bound HARBOR_METRICS_PORT (undefined when the probes and metrics share `port`). */
  metricsPort: number | undefined;
  stop(): Promise<void>;
  /** Work still running (request tasks, follow-ups), by name. */
  inFlight(): string[];
}

export interface StartBotOptions {
  clock?: Clock;
  /** Extra Slack WebClient options (tests: a fast retry policy). */
  clientOptions?: WebClientOptions;
  /** Node process metrics on /metrics (off in tests, where many bots share a process). */
  processMetrics?: boolean;
  /**
   * How long a command's answer may take before "Working on it…" shows (default 1 s). The message
   * gallery turns it off: on its real clock, a loaded machine would decide which answers get one.
   */
  workingNoticeMs?: number;
  /** How follow-ups poll after an apply (tests shorten it). */
  follow?: { pollMs?: number; timeoutMs?: number; resumeAfterMs?: number };
  /** How the outbox is polled (tests: a ManualClock, so only `housekeepNow` reads it). */
  outbox?: { pollMs?: number; clock?: Pick<Clock, 'now' | 'sleep'> };
  /** Work pieces behind acks that may run at once, and how many more may wait (see createSlackBot). */
  workConcurrency?: number;
  queueLimit?: number;
  /** Watches: the loop's clock, and `manual` to leave it unstarted (tests call `watcher.tick()`). */
  watch?: { clock?: Clock; manual?: boolean };
  /** Live tail settings (tests: a ManualClock, short leases, a tight budget). */
  tails?: Partial<Omit<SlackTailServiceOptions, 'store' | 'source' | 'logger'>>;
  /** More HTTP routes on the bot's port (local mode: the workspace page). */
  routes?: CustomRoute[];
  /** The liveness heartbeat's and the shutdown drain's clock (tests: a ManualClock). */
  probeClock?: Clock;
}

/** Starts every part and returns the running bot. */
export async function startBot(
  config: Config,
  logger: Logger,
  options: StartBotOptions = {},
): Promise<RunningBot> {
  const clock = options.clock ?? systemClock;
  const metrics = createMetrics({
    processMetrics: options.processMetrics ?? false,
    build: buildInfo(config.buildCommit),
  });
  // The policy needs Slack to resolve user groups, and the bot needs the policy:
  // the resolver is bound once the bot (and its Web API client) exists.
  let resolveGroup: (groupId: string, workspace?: string) => Promise<readonly string[]> = async () => [];
  let channelName: (channelId: string) => Promise<string | undefined> = async () => undefined;
  // The engine and the tails announce what moved in a release; the bot's release threads redraw.
  const releaseEvents: ReleaseEvents = new Events(logger.child({ component: 'release-events' }));
  // The engine tells what moved about a change; its message's owner in the bot redraws.
  const changeEvents = createChangeEvents(logger.child({ component: 'change-events' }));
  // Slack's limits are the workspace's, whatever the number of replicas: every call the bot makes
  // goes through one gateway (slack/gateway), which paces and orders them with gates in the store
  // every replica uses, on the tails' clock.
  const budgetClock = options.tails?.clock ?? clock;
  let store: Core['store'] | undefined;
  const gateway = new SlackGateway({
    token: config.slack.botToken ?? '',
    ...(config.slack.apiUrl ? { apiUrl: config.slack.apiUrl } : {}),
    clientOptions: {
      retryConfig: SLACK_CLIENT_RETRY,
      ...options.clientOptions,
      fetch: countedFetch(metrics.slackCalls, options.clientOptions?.fetch),
    },
    store: () => {
      if (!store) throw new Error('the Slack gateway was asked for a slot before the store opened');
      return store;
    },
    replicaId: config.replicaId,
    clock: budgetClock,
    logger,
    ...(options.tails?.budget ? { limits: options.tails.budget } : {}),
    onFallback: (method) => metrics.slackBudgetFallback.inc({ method }),
  });
  // The bot token's check runs while the core starts (slack/runtime/token-check.ts); it is awaited
  // once the core is up, and a refused token then fails the start as before.
  const identity = checkBotToken(gateway);
  identity.catch(() => {});
  const core = await startCore({
    config,
    logger,
    clock,
    metrics,
    releaseEvents,
    changeEvents,
    ...(options.follow ? { follow: options.follow } : {}),
    ...(options.outbox ? { outbox: options.outbox } : {}),
    groups: {
      resolveGroup: (id, workspace) => resolveGroup(id, workspace),
      resolveChannelName: (id) => channelName(id),
      // Refusals name who can help as mentions and channel links.
      names: SLACK_POLICY_NAMES,
    },
  });
  store = core.store;
  const tails = createTailService({
    store: core.store,
    source: core.api.client,
    // Through the gateway: its tails' fair queue paces them, a 429 reaches it.
    slack: gatewayTailSlack(gateway),
    budgets: (workspace) => gateway.tailBudget(workspace),
    replicaId: config.replicaId,
    logger,
    clock,
    maxDurationMs: config.tailMaxDurationMs,
    releaseEvents,
    ...options.tails,
  });
  metrics.observeTailBudgets(() => tails.budgetSnapshots());
  const { watches, watcher } = wireWatches({
    config,
    core,
    logger,
    // Real time unless a test gives the loop its own clock: a test's ManualClock for the bot keeps its sleepers to itself.
    clock: options.watch?.clock ?? systemClock,
    gateway,
    metrics,
    changeEvents,
  });
  let botIdentity: BotIdentity;
  try {
    botIdentity = await identity;
  } catch (err) {
    await core.stop();
    throw err;
  }
  const bot = createSlackBot({
    slack: config.slack,
    gateway,
    identity: botIdentity,
    engine: core.engine,
    // Release threads keep their records in the same store as changes.
    store: core.store,
    tails,
    releaseEvents,
    changeEvents,
    policy: core.policy,
    reads: new Reads({
      api: core.api.client,
      policy: core.policy,
      branches: config.branches,
      environments: config.environments,
      // Type-ahead's list reads: a refused one is answered with no options and counted as shed.
      budget: new ReadBudget({
        clock,
        ...READ_BUDGET_DEFAULTS,
        onShed: () => metrics.shed.inc({ kind: 'api-read' }),
      }),
    }),
    watches,
    freezes: new Freezes({
      store: core.store,
      policy: core.policy,
      // As watches know them: the API's list, the configured ones when it cannot say.
      environments: async () => {
        try {
          return (await core.api.client.listEnvironments()).map((e) => e.metadata.name);
        } catch {
          return [...config.environments];
        }
      },
    }),
    pingStore: () => core.store.ping(),
    ...(config.branches ? { branches: config.branches } : {}),
    environments: config.environments,
    clock,
    ...(options.workingNoticeMs !== undefined ? { workingNoticeMs: options.workingNoticeMs } : {}),
    logger,
    metrics,
    ...(options.clientOptions ? { clientOptions: options.clientOptions } : {}),
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.probeClock ? { probeClock: options.probeClock } : {}),
    ...(options.workConcurrency ? { workConcurrency: options.workConcurrency } : {}),
    ...(options.queueLimit !== undefined ? { queueLimit: options.queueLimit } : {}),
    shutdownDrainMs: config.shutdownDrainMs,
  });
  // The token check's answer serves the budget's workspace and the group lookups too.
  resolveGroup = slackGroupResolver(
    gateway.calls('person'),
    logger.child({ component: 'usergroups' }),
    botIdentity.enterpriseInstall,
  );
  channelName = (id) => bot.channelNames.resolve(id);
  let port: number | undefined;
  try {
    port = await bot.start();
  } catch (err) {
    // A half-started receiver (Socket Mode's health server, its socket client) must not outlive the failure.
    await bot.stop().catch(() => {});
    await core.stop();
    throw err;
  }
  if (!options.watch?.manual) watcher.start();
  await core.startHousekeeping({ repair: () => bot.repairChangeMessages() });
  return {
    core,
    bot,
    tails,
    watcher,
    slackBudget: {
      busy: () => gateway.busy(),
      idle: () => gateway.idle(),
      waiting: () => gateway.waiting(),
      asked: (purpose, method) => gateway.asked(purpose, method),
      until: (check) => gateway.until(check),
      sent: () => gateway.sent(),
    },
    metrics,
    port,
    metricsPort: bot.metricsPort(),
    inFlight: () => bot.inFlight(),
    stop: async () => {
      // A message waiting for a slot goes out now: the shutdown must not wait on the budget's clock.
      gateway.stop();
      // The leases go back at once, so another replica polls without waiting for them to lapse.
      await watcher.stop();
      await bot.stop();
      await core.stop();
    },
  };
}
