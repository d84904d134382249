/**
 * A worker replica (HARBOR_ROLE=worker, issue 39): the same binary with
 * Slack off. No Bolt app, no receiver, no Slack client: it opens the core
 * (hosting API, store, policy, engine) and runs the domain's lifecycle
 * (startup/core.ts): recovers applies a dead replica left behind, expires
 * the overdue, follows applied changes up and resumes cut-short follow-ups,
 * claims the notices due. Nobody listens here, so what it does goes to the
 * outbox unheard, and a bot replica on the same store draws it
 * (changes/outbox-reader.ts).
 *
 * It serves the probes and /metrics a Slack replica serves (probes/health.ts),
 * on HARBOR_METRICS_PORT when set, else on PORT, and nothing else: liveness
 * is the event loop's heartbeat and the housekeeping loops' passes
 * (startup/housekeeping-beats.ts), readiness the store and the hosting API's
 * configuration, /metrics the core's series only (no Slack ones).
 */
import type { Config } from '../config/config.js';
import { healthRoutes } from '../probes/health.js';
import { type OpsServer, startOpsServer } from '../probes/ops-server.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import { Heartbeat } from '../runtime/heartbeat.js';
import type { Logger } from '../runtime/logger.js';
import { type CoreMetrics, createCoreMetrics } from '../runtime/metrics.js';
import { buildInfo } from './build-info.js';
import { type Core, startCore } from './core.js';

export interface RunningWorker {
  core: Core;
  metrics: CoreMetrics;
  /** The bound port of the probes and /metrics (useful with PORT=0). */
  port: number;
  /** Readiness turns 503, then the lifecycle stops, then the probes' server closes. */
  stop(): Promise<void>;
}

export interface StartWorkerOptions {
  clock?: Clock;
  /** How follow-ups poll after an apply (tests shorten it). */
  follow?: { pollMs?: number; timeoutMs?: number; resumeAfterMs?: number };
  /** Node process metrics on /metrics (off in tests, where many replicas share a process). */
  processMetrics?: boolean;
  /** The event loop heartbeat's clock (default: the system's; tests: a ManualClock). */
  probeClock?: Clock;
}

/** Starts the core and its lifecycle without Slack, and serves the probes and /metrics. */
export async function startWorker(
  config: Config,
  logger: Logger,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  const metrics = createCoreMetrics({
    processMetrics: options.processMetrics ?? false,
    build: buildInfo(config.buildCommit),
  });
  const core = await startCore({
    config,
    logger,
    metrics,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.follow ? { follow: options.follow } : {}),
    // Without Slack no user group or channel name can be resolved: a worker judges no person's
    // click (recovery, expiry and follow-ups act on what was already authorized).
    groups: { resolveGroup: async () => [], resolveChannelName: async () => undefined },
  });
  let draining = false;
  const heartbeat = new Heartbeat({ clock: options.probeClock ?? systemClock });
  const routes = healthRoutes(
    {
      // Without GAMEFABRIC_URL the core runs the embedded demo simulator: no real server is looked after.
      apiConfigured: () => core.api.simulatorUrl === undefined,
      pingStore: () => core.store.ping(),
      draining: () => draining,
      liveness: () => {
        const loop = heartbeat.report();
        const passes = core.housekeepingLiveness();
        return { ...loop, ...passes, live: loop.live && passes.live };
      },
    },
    metrics,
  );
  heartbeat.start();
  // PORT and HARBOR_METRICS_PORT are read into the Slack settings, where the bot's listener uses them.
  const port = config.slack.metricsPort ?? config.slack.port;
  let ops: OpsServer;
  try {
    ops = await startOpsServer(routes, port, config.slack.host);
  } catch (err) {
    heartbeat.stop();
    await core.stop();
    throw err;
  }
  logger.info(`probes and metrics on port ${ops.port}`);
  // Served before the first pass: the liveness probe judges it (5 min), not the startup probe's 2 min.
  await core.startHousekeeping();
  logger.info('Harbormaster worker: the lifecycle runs here, Slack is off', { replica: config.replicaId });
  return {
    core,
    metrics,
    port: ops.port,
    stop: async () => {
      draining = true;
      // Nothing routes requests to a worker, so there is no drain to wait: the lifecycle stops at once.
      await core.stop();
      heartbeat.stop();
      // Last: the probes answer (readiness 503) for as long as stopping takes.
      await ops.close();
    },
  };
}
