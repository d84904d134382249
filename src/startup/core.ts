/**
 * Builds the platform-neutral core (hosting API, store, policy, change engine)
 * from the config, and runs its housekeeping: recovering changes a crashed
 * process left applying, and expiring changes nobody acted on, on a loop of
 * its own apart from the one that repairs messages at Slack's pace.
 */
import { type ClaimedNotices, claimDueNotices } from '../changes/change-notices.js';
import { ChangeEngine } from '../changes/engine.js';
import type { ChangeEvents } from '../changes/events.js';
import type { Config } from '../config/config.js';
import { Guards } from '../guards/guards.js';
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
   * Runs housekeeping on two loops, each now and 30 s after its pass ends
   * (a loop's passes never overlap), neither waiting for the other:
   * - the lifecycle's: recovers changes a crashed process left applying,
   *   expires the overdue, resumes cut-short follow-ups, looks again at
   *   promotions not yet visible and claims the notices due (approval
   *   reminders, expiry notices: changes/change-notices.ts). The engine tells
   *   what moved as change events it does not wait for, and the claimed
   *   notices go to `onNotices` without waiting for their delivery: its clocks
   *   never run at Slack's pace (issue 39.4). Without `onNotices` none are
   *   claimed.
   * - the drawing's: `repair` redraws finished changes whose message does not
   *   show it (a rewrite lost to a Slack outage, or one that failed after
   *   the lifecycle moved the change), at Slack's pace.
   * - the scheduler's: every 5 s, applies the scheduled changes whose time
   *   has come (one replica writes each), marks missed those past the grace
   *   (changes/schedule/due.ts); what it moved is told as change events.
   * Started after Slack is up, so no event is missed.
   */
  startHousekeeping(
    repair: () => Promise<void>,
    onNotices?: (notices: ClaimedNotices) => Promise<void>,
  ): Promise<void>;
  /**
   * Runs one pass of each loop (after the one under way, if any) and resolves
   * once they and what they set off (redraws, notices) have ended: for tests
   * and tools that need what housekeeping did to be visible.
   */
  housekeepNow(): Promise<void>;
  stop(): Promise<void>;
}

const HOUSEKEEPING_MS = 30_000;

/** How often each replica looks for scheduled changes whose time has come: the most a change applies late while one runs. */
export const SCHEDULER_TICK_MS = 5_000;
/** A guard's lease (issue 42): three passes, so a replica that stopped is replaced after about a minute and a half. */
const GUARD_LEASE_MS = 3 * HOUSEKEEPING_MS;

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
    schedule: { graceMs: config.scheduleGraceMs, maxAheadMs: config.scheduleMaxAheadMs },
    ...(groups.names ? { names: groups.names } : {}),
    ...(follow ? { follow } : {}),
    ...(releaseEvents ? { releaseEvents } : {}),
    ...(changeEvents ? { changeEvents } : {}),
  });

  // Guarded rollouts (issue 42): every replica's pass takes the guards whose lease it can hold.
  const guards = new Guards({
    store,
    engine,
    source: api.client,
    clock,
    logger: logger.child({ component: 'guards' }),
    replicaId: config.replicaId,
    settleMs: config.watchSettleMs,
    leaseMs: GUARD_LEASE_MS,
  });

  // Notices handed to the surface and not yet delivered (a delivery waits for its change's redraw).
  const delivering = new Set<Promise<void>>();
  const deliver = (onNotices: (notices: ClaimedNotices) => Promise<void>, notices: ClaimedNotices) => {
    const sent = onNotices(notices)
      .catch((err: unknown) =>
        logger.error('could not send the notices housekeeping claimed', { error: err }),
      )
      .finally(() => delivering.delete(sent));
    delivering.add(sent);
  };
  /** Resolves once what the lifecycle set off (redraws, release refreshes, notices) has ended. */
  const settled = async () => {
    do {
      await Promise.all([changeEvents?.settled(), releaseEvents?.settled(), ...delivering]);
    } while (delivering.size > 0);
  };
  // The lifecycle's pass: it waits for the store and the hosting API, never for Slack. What it
  // moves is told as events nobody waits for; the store records it, and a redraw that fails is
  // repaired by the drawing's loop.
  const lifecyclePass = async (onNotices: ((notices: ClaimedNotices) => Promise<void>) | undefined) => {
    const recovered = await engine.recoverInterrupted();
    for (const c of recovered)
      logger.warn('recovered an interrupted change', { changeId: c.id, status: c.status });
    await engine.expireDue();
    // Follow-ups a stopped replica cut short (a deploy mid-rollout) start again here.
    await engine.resumeFollowUps();
    // Promotions accepted but not yet visible: redrawn once the copy shows or the settle window ends.
    await engine.recheckUnverified();
    // A guard that cannot be looked at now is looked at next pass; the notices below are not held up by it.
    await guards.pass().catch((error: unknown) => logger.error('the guards pass failed', { error }));
    if (!onNotices) return;
    // Claimed after the changes moved above were told, so each of their rewrites is queued before
    // its notice: a notice waits for its own change's redraw (an expired change's message says so
    // before its requester is told), not for every redraw, and not here.
    const notices = await claimDueNotices(store, clock.now());
    if (notices.reminders.length + notices.expired.length > 0) deliver(onNotices, notices);
  };
  let lifecycle: Housekeeping | undefined;
  let drawing: Housekeeping | undefined;
  let drawingStarted: Promise<void> | undefined;
  let scheduler: Housekeeping | undefined;
  let schedulerStarted: Promise<void> | undefined;

  return {
    api,
    store,
    engine,
    policy,
    startHousekeeping: async (repair, onNotices) => {
      const onError = (what: string) => (err: unknown) => logger.error(`${what} failed`, { error: err });
      lifecycle ??= new Housekeeping({
        pass: () => lifecyclePass(onNotices),
        intervalMs: HOUSEKEEPING_MS,
        clock: backgroundClock,
        onError: onError('housekeeping'),
      });
      // Messages a Slack outage left behind, at Slack's pace: its own loop, not awaited here.
      drawing ??= new Housekeeping({
        pass: repair,
        intervalMs: HOUSEKEEPING_MS,
        clock: backgroundClock,
        onError: onError('message repair'),
      });
      drawingStarted ??= drawing.start();
      // Scheduled changes on a loop of their own: their time should not wait behind a slow lifecycle pass.
      scheduler ??= new Housekeeping({
        pass: async () => {
          await engine.runScheduled();
        },
        intervalMs: SCHEDULER_TICK_MS,
        clock: backgroundClock,
        onError: onError('the scheduler'),
      });
      await lifecycle.start();
      // After the lifecycle's first pass (a dead apply recovered first), not beside it: the first
      // passes at start share the store's connections, and the scheduler's comes soon enough.
      schedulerStarted ??= scheduler.start();
    },
    housekeepNow: async () => {
      await Promise.all([lifecycle?.runNow(), drawing?.runNow(), scheduler?.runNow()]);
      await settled();
    },
    stop: async () => {
      await lifecycle?.stop();
      await drawing?.stop();
      await drawingStarted;
      await scheduler?.stop();
      await schedulerStarted;
      // Redraws and notices under way end before the store closes under them.
      await settled();
      await store.close();
      await api.stop();
    },
  };
}
