/**
 * A worker replica (HARBOR_ROLE=worker, issue 39): the same binary with
 * Slack off. No Bolt app, no receiver, no Slack client: it opens the core
 * (hosting API, store, policy, engine) and runs the domain's lifecycle
 * (startup/core.ts): recovers applies a dead replica left behind, expires
 * the overdue, follows applied changes up and resumes cut-short follow-ups,
 * claims the notices due. Nobody listens here, so what it does goes to the
 * outbox unheard, and a bot replica on the same store draws it
 * (changes/outbox-reader.ts).
 */
import type { Config } from '../config/config.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { type Core, startCore } from './core.js';

export interface RunningWorker {
  core: Core;
  stop(): Promise<void>;
}

export interface StartWorkerOptions {
  clock?: Clock;
  /** How follow-ups poll after an apply (tests shorten it). */
  follow?: { pollMs?: number; timeoutMs?: number; resumeAfterMs?: number };
}

/** Starts the core and its lifecycle without Slack. */
export async function startWorker(
  config: Config,
  logger: Logger,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  const core = await startCore({
    config,
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.follow ? { follow: options.follow } : {}),
    // Without Slack no user group or channel name can be resolved: a worker judges no person's
    // click (recovery, expiry and follow-ups act on what was already authorized).
    groups: { resolveGroup: async () => [], resolveChannelName: async () => undefined },
  });
  await core.startHousekeeping();
  logger.info('Harbormaster worker: the lifecycle runs here, Slack is off', { replica: config.replicaId });
  return { core, stop: () => core.stop() };
}
