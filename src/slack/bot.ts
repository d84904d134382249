/**
 * The Slack bot: a Bolt App on the configured receiver, with the command,
 * button and modal listeners over the platform-neutral core. Thin on purpose:
 * listeners live in listeners/, the flows in handlers/.
 */

import { App, type CustomRoute } from '@slack/bolt';
import type { WebClientOptions } from '@slack/web-api';
import type { ChangeEngine } from '../changes/engine.js';
import type { ChangeEvents } from '../changes/events.js';
import type { Reads } from '../changes/reads.js';
import { SCHEDULER_ACTOR } from '../changes/schedule/due.js';
import type { SlackConfig } from '../config/config.js';
import type { Freezes } from '../freezes/manage.js';
import type { Policy } from '../policy/types.js';
import { healthRoutes } from '../probes/health.js';
import { type OpsServer, startOpsServer } from '../probes/ops-server.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import type { ReleaseEvents } from '../runtime/events.js';
import { Heartbeat } from '../runtime/heartbeat.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import type { Store } from '../store/types.js';
import type { TailService } from '../tails/types.js';
import type { Watches } from '../watches/manage.js';
import { ChangeMessages } from './change-messages/owner.js';
import type { SlackGateway } from './gateway/gateway.js';
import type { BotContext } from './handlers/context.js';
import { homePublisher, registerHome } from './home/listeners.js';
import { AckFront } from './listeners/ack-first.js';
import { registerCommand } from './listeners/commands.js';
import { registerInteractions } from './listeners/interactions.js';
import { createListen } from './listeners/listen.js';
import { registerOptions } from './listeners/options.js';
import { registerShortcuts } from './listeners/shortcuts.js';
import { createReceiver } from './receiver.js';
import { ReleaseThreads } from './releases/threads.js';
import { AckWatch } from './runtime/ack-watch.js';
import { Backlog } from './runtime/backlog.js';
import { boltLogger } from './runtime/bolt-logger.js';
import { ChannelNames } from './runtime/channel-names.js';
import { countedFetch } from './runtime/counted-fetch.js';
import { SLACK_CLIENT_RETRY } from './runtime/slack-fetch.js';
import { Slots } from './runtime/slots.js';
import { Tasks } from './runtime/tasks.js';
import type { BotIdentity } from './runtime/token-check.js';

interface SlackBotOptions {
  slack: SlackConfig;
  /** The bot's one way to Slack's Web API (slack/gateway): every call the bot makes goes through it. */
  gateway: SlackGateway;
  /** The bot's ids, from the token's check at start (slack/runtime/token-check.ts): Bolt does not ask again. */
  identity: BotIdentity;
  engine: ChangeEngine;
  /** Release threads read and write their records here. */
  store: Store;
  /** Live tails: resumed (and scanned for orphans) once the bot is up, detached when it stops. */
  tails: TailService & { startScanning(): Promise<void> };
  /** What the engine and the tails announce about releases; release messages redraw on it. */
  releaseEvents: ReleaseEvents;
  /** What the engine tells about changes; their messages redraw on it (slack/change-messages). */
  changeEvents: ChangeEvents;
  policy: Policy;
  reads: Reads;
  /** Watches (issue 29): the commands and an alert's buttons. */
  watches: Watches;
  /** Freezes (issue 41): the commands. */
  freezes: Freezes;
  pingStore(): Promise<void>;
  /** HARBOR_BRANCHES: only these of the API's branches, when set. */
  branches?: readonly string[];
  /** Environments offered in forms and suggested for mistyped names. */
  environments: readonly string[];
  clock: Clock;
  /** How long a command's answer may take before "Working on it…" shows (default 1 s). */
  workingNoticeMs?: number;
  logger: Logger;
  metrics: Metrics;
  /** Extra WebClient options (tests: a fast retry policy). */
  clientOptions?: WebClientOptions;
  /** Requests whose work (behind the ack) may run at once; the rest wait their turn (default 32). */
  workConcurrency?: number;
  /** Requests that may wait for a work slot beyond those running; past it they are answered "busy" (default 256). */
  queueLimit?: number;
  /** More HTTP routes on the bot's port (local mode: the workspace page). */
  routes?: CustomRoute[];
  /** The liveness heartbeat's and the shutdown drain's clock (default: the system's; tests: a ManualClock). */
  probeClock?: Clock;
  /** HTTP mode: how long to keep serving with readiness 503 before closing the listener (default 0). */
  shutdownDrainMs?: number;
}

/**
 * Enough for a team's busiest minute (each piece mostly waits on the
 * hosting API), few enough that a burst of hundreds cannot starve the acks
 * of requests still arriving.
 */
const DEFAULT_WORK_CONCURRENCY = 32;

/**
 * Eight times the running work: minutes of a team's busiest traffic, while
 * a flood past it costs a few MB at most (a queued job keeps a few fields,
 * not the payload).
 */
const DEFAULT_QUEUE_LIMIT = 256;

/** How long a command's answer may take before "Working on it…" shows. */
const WORKING_NOTICE_MS = 1000;

export interface SlackBot {
  app: App;
  /** Starts the receiver (the token was checked by startBot); returns the HTTP port. */
  start(): Promise<number | undefined>;
  /** Redraws finished changes whose message does not show it (a rewrite lost to a Slack outage). */
  repairChangeMessages(): Promise<void>;
  /** Channel names learnt from payloads, for policy rules that name channels. */
  channelNames: ChannelNames;
  /** Resolves when all work started by requests so far has finished (tests, shutdown). */
  idle(): Promise<void>;
  /**
   * Resolves when every request acked so far has been routed: its Bolt chain
   * (which starts after the burst's acks) has run and its work is queued.
   */
  routed(): Promise<void>;
  /** Resolves when every follow-up (thread status after an apply) has finished. */
  followUpsDone(): Promise<void>;
  /** Names of the request tasks and follow-ups still running (what a cut-short shutdown leaves). */
  inFlight(): string[];
  /** The bound HARBOR_METRICS_PORT once started (undefined when the probes share the bot's port). */
  metricsPort(): number | undefined;
  /**
   * Readiness turns 503, the bot keeps serving for the drain time (HTTP mode), requests already
   * accepted finish, the listener closes; then work behind acks and follow-ups finish.
   */
  stop(): Promise<void>;
}

/** Builds the bot; nothing connects until start(). */
export function createSlackBot(o: SlackBotOptions): SlackBot {
  let tokenChecked = false;
  let draining = false;
  const logger = o.logger.child({ component: 'slack' });
  const probeClock = o.probeClock ?? systemClock;
  const heartbeat = new Heartbeat({ clock: probeClock });
  const opsRoutes = healthRoutes(
    {
      slackConnected: () => tokenChecked && receiver.socketOpen(),
      pingStore: o.pingStore,
      draining: () => draining,
      liveness: () => heartbeat.report(),
    },
    o.metrics,
  );
  // With HARBOR_METRICS_PORT the probes and metrics move there, and the bot's port serves Slack only.
  const ownPort = o.slack.metricsPort !== undefined;
  const routes: CustomRoute[] = ownPort
    ? []
    : opsRoutes.map((r) => ({ path: r.path, method: ['GET'], handler: r.handler }));
  let ops: OpsServer | undefined;
  const acks = new AckWatch();
  // Bolt's and Socket Mode's own clients get these options, so every Web API call is counted
  // (the bot itself calls Slack only through the gateway).
  const clientOptions: WebClientOptions = {
    ...o.clientOptions,
    fetch: countedFetch(o.metrics.slackCalls, o.clientOptions?.fetch),
  };
  const workConcurrency = o.workConcurrency ?? DEFAULT_WORK_CONCURRENCY;
  // Both receivers ack from the body before Bolt's chain (listeners/ack-first.ts); past the backlog, "busy".
  const front = new AckFront(new Backlog(workConcurrency + (o.queueLimit ?? DEFAULT_QUEUE_LIMIT)), {
    metrics: o.metrics,
    logger,
  });
  const receiver = createReceiver(o.slack, [...routes, ...(o.routes ?? [])], logger, {
    acks,
    ackFirst: front.decide,
    clientOptions,
  });
  const app = new App({
    token: o.slack.botToken,
    receiver: receiver.receiver,
    logger: boltLogger(logger.child({ component: 'bolt' })),
    deferInitialization: true,
    // The token was checked already (startBot, while the store and policy loaded).
    tokenVerificationEnabled: false,
    botId: o.identity.botId,
    botUserId: o.identity.botUserId,
    clientOptions: {
      ...(o.slack.apiUrl ? { slackApiUrl: o.slack.apiUrl } : {}),
      retryConfig: SLACK_CLIENT_RETRY,
      ...clientOptions,
    },
  });
  // Work behind acks starts once no ack is pending and arrivals have settled (at most 250 ms later,
  // so steady traffic cannot starve it).
  const tasks = new Tasks(logger, () => acks.quiet(250));
  const stopping = new AbortController();
  const person = o.gateway.calls('person');
  const releases = new ReleaseThreads({
    store: o.store,
    // A release's messages are states people act on (its changes, its end).
    slack: o.gateway.calls('outcome'),
    clock: o.clock,
    logger: logger.child({ component: 'releases' }),
    engine: o.engine,
    tails: o.tails,
  });
  // Redraws of one release run one at a time, newest state last (slack/runtime/serial.ts).
  const stopRedrawing = o.releaseEvents.on(({ releaseId }) => releases.refresh(releaseId));
  const changeMessages = new ChangeMessages({
    slack: person,
    progress: o.gateway.calls('progress'),
    redraw: ({ purpose, channel, key, args }) =>
      o.gateway.call(purpose, 'chat.update', args, { key, channel }),
    clock: o.clock,
    logger,
    store: o.store,
    engine: o.engine,
    commandName: o.slack.command,
    releaseEvents: o.releaseEvents,
  });
  // Change messages redraw on the engine's events alone (slack/change-messages/owner.ts).
  const stopChangeRedraws = changeMessages.listen(o.changeEvents);
  const ctx: BotContext = {
    engine: o.engine,
    changeMessages,
    store: o.store,
    tails: o.tails,
    releases,
    policy: o.policy,
    reads: o.reads,
    watches: o.watches,
    freezes: o.freezes,
    slack: person,
    clock: o.clock,
    logger,
    metrics: o.metrics,
    tasks,
    stopping: stopping.signal,
    channelNames: new ChannelNames(person, o.clock, logger.child({ component: 'channels' })),
    commandName: o.slack.command,
    workingNoticeMs: o.workingNoticeMs ?? WORKING_NOTICE_MS,
    ...(o.branches ? { branches: o.branches } : {}),
    environments: o.environments,
    // The publisher is built from this context; a notice is only asked for once a click runs.
    homeNotices: { tell: (user, team, m) => home.notify(user, team, m.text) },
  };
  const home = homePublisher(ctx, o.gateway);
  const listen = createListen(ctx, new Slots(workConcurrency), front, (actor) => home.stale(actor.team));
  registerCommand(app, ctx, listen);
  registerInteractions(app, ctx, listen);
  registerOptions(app, ctx, listen);
  registerShortcuts(app, ctx, listen);
  registerHome(app, home, listen);
  // A tail starts, or stops behind its Stop click or on its own: Home tabs listing live tails redraw.
  const stopTailRedraws = o.tails.onChanged((record) => home.stale(record.workspace));
  // Housekeeping moved changes with nobody acting (expired, recovered, a promotion now visible):
  // Home tabs listing them redraw too, at the views.publish gate's pace, waited for by nobody.
  // So did the scheduler, applying a change at its time (issue 41: told as a click by SCHEDULER_ACTOR).
  const stopHomeMoves = o.changeEvents.on((event) => {
    const moved =
      event.kind === 'closed'
        ? event.changes
        : event.kind === 'clicked' && event.by === SCHEDULER_ACTOR
          ? [event.outcome.change]
          : [];
    for (const team of new Set(moved.map((c) => c.origin.workspace)))
      home
        .stale(team)
        .catch((err: unknown) => logger.warn('could not redraw Home tabs', { team, error: err }));
  });
  app.error(async (err) => {
    o.metrics.errors.inc({ where: 'bolt' });
    logger.error('unhandled error in a Slack listener', { error: err });
  });

  return {
    app,
    channelNames: ctx.channelNames,
    start: async () => {
      heartbeat.start();
      // Probes answer (not ready yet) while the rest starts.
      if (o.slack.metricsPort !== undefined) {
        ops = await startOpsServer(opsRoutes, o.slack.metricsPort, o.slack.host);
        logger.info(`probes and metrics on port ${ops.port}`);
      }
      await app.init();
      tokenChecked = true;
      const port = await receiver.start();
      logger.info(
        `Slack bot listening (${receiver.mode === 'socket' ? `Socket Mode, probes on port ${port}` : `HTTP on port ${port}`})`,
      );
      // Tails a previous run (or a dead replica) left active carry on here.
      await o.tails.startScanning();
      return port;
    },
    repairChangeMessages: () => changeMessages.repair(),
    routed: () => receiver.chainsDone(),
    idle: async () => {
      // Chains start after the acks; each queues its request's work as it runs.
      await receiver.chainsDone();
      await tasks.idle();
      await home.idle();
    },
    followUpsDone: async () => {
      // The domain runs follow-ups (on any replica); their steps end up in this owner's thread queues.
      await o.engine.followUpsDone();
      // The redraws their recorded states set off, and the steps' thread replies.
      await o.changeEvents.settled();
      await changeMessages.threadsDone();
    },
    inFlight: () => tasks.names(),
    metricsPort: () => ops?.port,
    stop: async () => {
      draining = true;
      const drainMs = o.shutdownDrainMs ?? 0;
      if (receiver.mode === 'http' && drainMs > 0) {
        logger.info('readiness is 503; still serving while load balancers stop sending', { drainMs });
        await probeClock.sleep(drainMs);
      }
      await receiver.requestsDone();
      await receiver.stop();
      await receiver.chainsDone();
      await tasks.idle();
      // Tails are left active, not stopped: a restart or another replica resumes them.
      await o.tails.close();
      stopping.abort();
      // What the owner was drawing ends before its listeners go (follow-ups stop with the core).
      await changeMessages.threadsDone();
      stopRedrawing();
      stopChangeRedraws();
      stopTailRedraws();
      stopHomeMoves();
      heartbeat.stop();
      // Last: the probes answer (503) for as long as anything above takes.
      await ops?.close();
    },
  };
}
