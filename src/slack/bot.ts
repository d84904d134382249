/**
 * The Slack bot: a Bolt App on the configured receiver, with the command,
 * button and modal listeners over the platform-neutral core. Thin on purpose:
 * listeners live in listeners/, the flows in handlers/.
 */
import { App, type CustomRoute } from '@slack/bolt';
import type { WebClientOptions } from '@slack/web-api';
import type { Change } from '../changes/change.js';
import type { ChangeEngine } from '../changes/engine.js';
import type { SlackConfig } from '../config/config.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import type { Policy } from '../policy/types.js';
import type { Clock } from '../runtime/clock.js';
import type { ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import type { Store } from '../store/types.js';
import type { TailService } from '../tails/types.js';
import { rewriteChangeMessage } from './handlers/change-message.js';
import type { BotContext } from './handlers/context.js';
import { registerCommand } from './listeners/commands.js';
import { registerInteractions } from './listeners/interactions.js';
import { createListen } from './listeners/listen.js';
import { createReceiver } from './receiver.js';
import { ReleaseThreads } from './releases/threads.js';
import { AckWatch } from './runtime/ack-watch.js';
import { boltLogger } from './runtime/bolt-logger.js';
import { healthRoutes } from './runtime/health.js';
import { Slots } from './runtime/slots.js';
import { Tasks } from './runtime/tasks.js';
import { ChannelNames } from './runtime/user-groups.js';

interface SlackBotOptions {
  slack: SlackConfig;
  engine: ChangeEngine;
  /** Release threads read and write their records here. */
  store: Store;
  /** Live tails: resumed (and scanned for orphans) once the bot is up, detached when it stops. */
  tails: TailService & { startScanning(): Promise<void> };
  /** What the engine and the tails announce about releases; release messages redraw on it. */
  releaseEvents: ReleaseEvents;
  policy: Policy;
  api: GameFabricClient;
  pingStore(): Promise<void>;
  /** HARBOR_BRANCHES: only these of the API's branches, when set. */
  branches?: readonly string[];
  /** Environments offered in forms and suggested for mistyped names. */
  environments: readonly string[];
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** Extra WebClient options (tests: a fast retry policy). */
  clientOptions?: WebClientOptions;
  /** Requests whose work (behind the ack) may run at once; the rest wait their turn (default 32). */
  workConcurrency?: number;
  /** More HTTP routes on the bot's port (local mode: the workspace page). */
  routes?: CustomRoute[];
}

/**
 * Enough for a team's busiest minute (each piece mostly waits on the
 * hosting API), few enough that a burst of hundreds cannot starve the acks
 * of requests still arriving.
 */
const DEFAULT_WORK_CONCURRENCY = 32;

export interface SlackBot {
  app: App;
  /** Checks the bot token (auth.test) and starts the receiver; returns the HTTP port. */
  start(): Promise<number | undefined>;
  /** Rewrites the messages of changes housekeeping closed (expired, recovered). */
  changesClosed(changes: Change[]): Promise<void>;
  /** Channel names learnt from payloads, for policy rules that name channels. */
  channelNames: ChannelNames;
  /** Resolves when all work started by requests so far has finished (tests, shutdown). */
  idle(): Promise<void>;
  /** Resolves when every follow-up (thread status after an apply) has finished. */
  followUpsDone(): Promise<void>;
  /** Names of the request tasks and follow-ups still running (what a cut-short shutdown leaves). */
  inFlight(): string[];
  stop(): Promise<void>;
}

/** Builds the bot; nothing connects until start(). */
export function createSlackBot(o: SlackBotOptions): SlackBot {
  let tokenChecked = false;
  const logger = o.logger.child({ component: 'slack' });
  const routes = healthRoutes(
    { slackConnected: () => tokenChecked && receiver.socketOpen(), pingStore: o.pingStore },
    o.metrics,
  );
  const acks = new AckWatch();
  const receiver = createReceiver(o.slack, [...routes, ...(o.routes ?? [])], logger, acks, o.clientOptions);
  const app = new App({
    token: o.slack.botToken,
    receiver: receiver.receiver,
    logger: boltLogger(logger.child({ component: 'bolt' })),
    deferInitialization: true,
    clientOptions: {
      ...(o.slack.apiUrl ? { slackApiUrl: o.slack.apiUrl } : {}),
      // The SDK's default keeps retrying for ~30 minutes; an on-call user
      // waiting for an answer (or a start-up check) needs to hear within seconds.
      retryConfig: { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 4_000 },
      ...o.clientOptions,
    },
  });
  // Work behind acks starts once no ack is pending and arrivals have settled (at most 250 ms later,
  // so steady traffic cannot starve it).
  const tasks = new Tasks(logger, () => acks.quiet(250));
  const followUps = new Tasks(logger);
  const stopping = new AbortController();
  const releases = new ReleaseThreads({
    store: o.store,
    slack: app.client,
    clock: o.clock,
    logger: logger.child({ component: 'releases' }),
    tails: o.tails,
  });
  // Redraws of one release run one at a time, newest state last (releases/serial.ts).
  const stopRedrawing = o.releaseEvents.on(({ releaseId }) => releases.refresh(releaseId));
  const ctx: BotContext = {
    engine: o.engine,
    store: o.store,
    tails: o.tails,
    releases,
    policy: o.policy,
    api: o.api,
    slack: app.client,
    clock: o.clock,
    logger,
    metrics: o.metrics,
    tasks,
    followUps,
    stopping: stopping.signal,
    channelNames: new ChannelNames(),
    commandName: o.slack.command,
    ...(o.branches ? { branches: o.branches } : {}),
    environments: o.environments,
  };
  const listen = createListen(ctx, new Slots(o.workConcurrency ?? DEFAULT_WORK_CONCURRENCY));
  registerCommand(app, ctx, listen);
  registerInteractions(app, ctx, listen);
  app.error(async (err) => {
    o.metrics.errors.inc({ where: 'bolt' });
    logger.error('unhandled error in a Slack listener', { error: err });
  });

  return {
    app,
    channelNames: ctx.channelNames,
    start: async () => {
      await app.init();
      tokenChecked = true;
      const port = await receiver.start();
      logger.info(
        `Slack bot listening (${receiver.mode === 'socket' ? 'Socket Mode' : `HTTP on port ${port}`})`,
      );
      // Tails a previous run (or a dead replica) left active carry on here.
      await o.tails.startScanning();
      return port;
    },
    changesClosed: async (changes) => {
      for (const change of changes) await rewriteChangeMessage(ctx, change);
    },
    idle: () => tasks.idle(),
    followUpsDone: () => followUps.idle(),
    inFlight: () => [...tasks.names(), ...followUps.names()],
    stop: async () => {
      await receiver.stop();
      await tasks.idle();
      // Tails are left active, not stopped: a restart or another replica resumes them.
      await o.tails.close();
      stopping.abort();
      await followUps.idle();
      stopRedrawing();
    },
  };
}
