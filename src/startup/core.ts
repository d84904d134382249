/**
 * Builds the platform-neutral core (hosting API, store, policy, change engine)
 * from the config, and runs its housekeeping: recovering changes a crashed
 * process left applying, and expiring changes nobody acted on.
 */
import { type ClaimedNotices, claimDueNotices } from '../changes/change-notices.js';
import { ChangeEngine } from '../changes/engine.js';
import type { ChangeEvents } from '../changes/events.js';
import type { Config } from '../config/config.js';
import { loadPolicy } from '../policy/index.js';
import type { Policy, PolicyContext } from '../policy/types.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import type { ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/types.js';
import { connectHostingApi, type HostingApi } from './hosting-api.js';
import { backgroundClock, Housekeeping } from './housekeeping.js';

export interface Core {
  api: HostingApi;
  store: Store;
  engine: ChangeEngine;
  policy: Policy;
  /**
   * Runs housekeeping now and 30 s after each pass ends (passes never
   * overlap): recovers changes a crashed process left applying and expires
   * the overdue; the engine tells what moved as change events, which the
   * Slack layer redraws (started after Slack is up, so none are missed).
   * `repair` first redraws finished changes whose message does not show it
   * (a rewrite lost to a Slack outage). `onNotices` gets the approval reminders
   * and expiry notices the pass claimed (changes/change-notices.ts); without it
   * none are claimed.
   */
  startHousekeeping(
    repair: () => Promise<void>,
    onNotices?: (notices: ClaimedNotices) => Promise<void>,
  ): Promise<void>;
  /** Runs one housekeeping pass (after startHousekeeping; after the one under way, if any); resolves when it is done. */
  housekeepNow(): Promise<void>;
  stop(): Promise<void>;
}

const HOUSEKEEPING_MS = 30_000;

interface CoreOptions {
  config: Config;
  logger: Logger;
  /** How policy user groups (and channel names) are resolved: through Slack. */
  groups: Pick<PolicyContext, 'resolveGroup' | 'resolveChannelName' | 'names'>;
  clock?: Clock;
  metrics?: Metrics;
  /** How follow-ups poll after an apply (tests shorten it). */
  follow?: { pollMs?: number; timeoutMs?: number; resumeAfterMs?: number };
  /** Where the engine announces that a release's changes moved. */
  releaseEvents?: ReleaseEvents;
  /** Where the engine tells that a change moved (its message's owner redraws). */
  changeEvents?: ChangeEvents;
}

/** Opens every part and starts housekeeping. */
export async function startCore({
  config,
  logger,
  groups,
  clock = systemClock,
  metrics,
  follow,
  releaseEvents,
  changeEvents,
}: CoreOptions): Promise<Core> {
  const api = await connectHostingApi(config.gamefabric, logger, metrics);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeoutMs: config.databaseTimeoutMs,
    // pg_stat_activity then names the replica behind each connection.
    applicationName: config.replicaId,
    logger,
  });
  logger.info(
    `store: ${store.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`,
  );
  const policy = await loadPolicy(config.policyPath, { ...groups, logger });
  const engine = new ChangeEngine({
    client: api.client,
    store,
    policy,
    clock,
    logger,
    replicaId: config.replicaId,
    environments: config.environments,
    rollbackWindowMs: config.rollbackWindowMs,
    ...(groups.names ? { names: groups.names } : {}),
    ...(follow ? { follow } : {}),
    ...(releaseEvents ? { releaseEvents } : {}),
    ...(changeEvents ? { changeEvents } : {}),
  });

  const housekeepingPass = async (
    repair: () => Promise<void>,
    onNotices: ((notices: ClaimedNotices) => Promise<void>) | undefined,
  ) => {
    // Messages a Slack outage left behind first: what this pass moves is drawn by its own events.
    await repair();
    // Each tells what it moved (change events), drawn before it returns.
    const recovered = await engine.recoverInterrupted();
    for (const c of recovered)
      logger.warn('recovered an interrupted change', { changeId: c.id, status: c.status });
    await engine.expireDue();
    // Follow-ups a stopped replica cut short (a deploy mid-rollout) start again here.
    await engine.resumeFollowUps();
    // Promotions accepted but not yet visible: redrawn once the copy shows or the settle window ends.
    await engine.recheckUnverified();
    // After the redraws, so an expired change's message says so before its requester is told.
    if (!onNotices) return;
    const notices = await claimDueNotices(store, clock.now());
    if (notices.reminders.length + notices.expired.length > 0) await onNotices(notices);
  };
  let housekeeping: Housekeeping | undefined;

  return {
    api,
    store,
    engine,
    policy,
    startHousekeeping: async (repair, onNotices) => {
      housekeeping ??= new Housekeeping({
        pass: () => housekeepingPass(repair, onNotices),
        intervalMs: HOUSEKEEPING_MS,
        clock: backgroundClock,
        onError: (err) => logger.error('housekeeping failed', { error: err }),
      });
      await housekeeping.start();
    },
    housekeepNow: async () => {
      await housekeeping?.runNow();
    },
    stop: async () => {
      await housekeeping?.stop();
      await store.close();
      await api.stop();
    },
  };
}
