/**
 * Builds the platform-neutral core (hosting API, store, policy, change engine)
 * from the config, and runs the domain's lifecycle on any replica, Slack or
 * not (a worker, HARBOR_ROLE=worker): recovering changes a crashed process
 * left applying, expiring the overdue, resuming cut-short follow-ups and
 * following applied changes up, claiming notices, pruning the outbox. A
 * replica with a surface also reads the outbox (what replicas without one
 * did) and repairs messages on a loop of its own, at Slack's pace.
 */
import { ChangeEngine } from '../changes/engine.js';
import type { ChangeEvents } from '../changes/events.js';
import { OutboxReader } from '../changes/outbox-reader.js';
import type { Config } from '../config/config.js';
import { Guards } from '../guards/guards.js';
import { loadPolicy } from '../policy/index.js';
import type { Policy, PolicyContext } from '../policy/types.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import { Events, type ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { CoreMetrics, HousekeepingLoop } from '../runtime/metrics.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/types.js';
import { connectHostingApi, type HostingApi } from './hosting-api.js';
import { backgroundClock, Housekeeping } from './housekeeping.js';
import { HousekeepingBeats, type HousekeepingLiveness } from './housekeeping-beats.js';
export interface Core {
  api: HostingApi;
  store: Store;
  engine: ChangeEngine;
  policy: Policy;
  /**
   * Runs housekeeping on three loops, each now and again after its pass ends
   * (a loop's passes never overlap), none waiting for another:
   * - the lifecycle's, on every replica: recovers changes a crashed process
   *   left applying, expires the overdue, resumes cut-short follow-ups (the
   *   engine follows them up here), looks again at promotions not yet
   *   visible, claims the notices due (approval reminders, expiry notices:
   *   changes/change-notices.ts), runs the guards whose lease it can hold
   *   (issue 42: src/guards/) and prunes the outbox. What it moves is
   *   published as events after the store commits (the outbox); it never
   *   waits for a surface (issue 39.4).
   * - with a `surface` (a Slack replica), the drawing's: `repair` redraws
   *   finished changes whose message does not show it, at Slack's pace, every 30 s; and
   *   the outbox reader, which brings this replica what another replica
   *   without a surface published (a worker's follow-ups, expiries, ...).
   * - the scheduler's: every 5 s, applies the scheduled changes whose time
   *   has come (one replica writes each), marks missed those past the grace
   *   (changes/schedule/due.ts); what it moved is published as change events.
   * Started after Slack is up, so no event is missed.
   */
  startHousekeeping(surface?: { repair: () => Promise<void> }): Promise<void>;
  /**
   * Runs one pass of each loop (after the one under way, if any), reads the
   * outbox, and resolves once they and what they set off (redraws, notices)
   * have ended: for tests and tools that need what housekeeping did to be visible.
   */
  housekeepNow(): Promise<void>;
  /**
   * Whether the loops started keep ending passes (startup/housekeeping-beats.ts): a worker's
   * liveness, which has no other work to judge.
   */
  housekeepingLiveness(): HousekeepingLiveness;
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
  /** Hosting API calls, housekeeping passes and the guards' are counted here. */
  metrics?: CoreMetrics;
  /** How follow-ups poll after an apply (tests shorten it). */
  follow?: { pollMs?: number; timeoutMs?: number; resumeAfterMs?: number };
  /** Where the engine announces that a release's changes moved. */
  releaseEvents?: ReleaseEvents;
  /** Where the engine tells that a change moved (its message's owner redraws). */
  changeEvents?: ChangeEvents;
  /** How often the outbox is read where LISTEN cannot wake the reader (default 1 s), and on which clock. */
  outbox?: { pollMs?: number; clock?: Pick<Clock, 'now' | 'sleep'> };
}

/** How long outbox rows are kept (every replica has read them long before). */
const OUTBOX_RETENTION_MS = 60 * 60_000;

/** Opens every part and starts housekeeping. */
export async function startCore({
  config,
  logger,
  groups,
  clock = systemClock,
  metrics,
  follow,
  releaseEvents = new Events(logger),
  changeEvents,
  outbox,
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
    releaseEvents,
    ...(changeEvents ? { changeEvents } : {}),
    // The lifecycle runs here, Slack or not: applied changes are followed up by this replica.
    runFollowUps: true,
  });
  const reader = changeEvents
    ? new OutboxReader({
        store,
        changeEvents,
        releaseEvents,
        subscriber: 'surface',
        // Real time (an unref'd timer, as housekeeping's): a gap in PostgreSQL's seqs is waited for by the wall clock.
        clock: outbox?.clock ?? { now: systemClock.now, sleep: backgroundClock.sleep },
        pollMs: outbox?.pollMs ?? 1_000,
        claimTtlMs: OUTBOX_RETENTION_MS,
        logger,
      })
    : undefined;

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

  /** Resolves once what the lifecycle set off here (redraws, release refreshes, notices) has ended. */
  const settled = async () => {
    await Promise.all([changeEvents?.settled(), releaseEvents.settled()]);
  };
  // The lifecycle's pass: it waits for the store and the hosting API, never for a surface. What it
  // moves is published after the store commits (the outbox), and a redraw that fails is repaired
  // by the drawing's loop.
  const lifecyclePass = async () => {
    const recovered = await engine.recoverInterrupted();
    for (const c of recovered)
      logger.warn('recovered an interrupted change', { changeId: c.id, status: c.status });
    await engine.expireDue();
    // Follow-ups a stopped replica cut short (a deploy mid-rollout) start again here.
    await engine.resumeFollowUps();
    // Promotions accepted but not yet visible: redrawn once the copy shows or the settle window ends.
    await engine.recheckUnverified();
    // A guard that cannot be looked at now is looked at next pass; the notices below are not held up by it.
    await guards.pass().then(
      () => metrics?.guardPasses.inc({ outcome: 'ok' }),
      (error: unknown) => {
        metrics?.guardPasses.inc({ outcome: 'failed' });
        logger.error('the guards pass failed', { error });
      },
    );
    // Claimed after the changes moved above were published, so each of their rewrites is queued
    // before its notice: a notice waits for its own change's redraw, not for every redraw.
    await engine.claimNotices();
    const now = clock.now();
    await store.pruneOutbox(now - OUTBOX_RETENTION_MS, now);
  };
  const beats = new HousekeepingBeats(clock);
  /** `pass`, timed and counted by outcome, beating for the liveness probe when it ends (failed or not). */
  const measured =
    (loop: HousekeepingLoop, pass: () => Promise<void>): (() => Promise<void>) =>
    async () => {
      const end = metrics?.housekeepingSeconds.startTimer({ loop });
      let outcome: 'ok' | 'failed' = 'failed';
      try {
        await pass();
        outcome = 'ok';
      } finally {
        end?.();
        metrics?.housekeepingPasses.inc({ loop, outcome });
        metrics?.housekeepingLastPass.set({ loop }, clock.now() / 1000);
        beats.beat(loop);
      }
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
    startHousekeeping: async (surface) => {
      const onError = (what: string) => (err: unknown) => logger.error(`${what} failed`, { error: err });
      beats.started('lifecycle');
      lifecycle ??= new Housekeeping({
        pass: measured('lifecycle', lifecyclePass),
        intervalMs: HOUSEKEEPING_MS,
        clock: backgroundClock,
        onError: onError('housekeeping'),
      });
      if (surface) {
        await reader?.start();
        // Messages a Slack outage left behind, at Slack's pace: its own loop, not awaited here.
        beats.started('drawing');
        drawing ??= new Housekeeping({
          pass: measured('drawing', surface.repair),
          intervalMs: HOUSEKEEPING_MS,
          clock: backgroundClock,
          onError: onError('message repair'),
        });
        drawingStarted ??= drawing.start();
      }
      // Scheduled changes on a loop of their own: their time should not wait behind a slow lifecycle pass.
      beats.started('scheduler');
      scheduler ??= new Housekeeping({
        pass: measured('scheduler', async () => {
          await engine.runScheduled();
        }),
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
      await reader?.readNow();
      await settled();
    },
    housekeepingLiveness: () => beats.report(),
    stop: async () => {
      await lifecycle?.stop();
      await drawing?.stop();
      await drawingStarted;
      await scheduler?.stop();
      await schedulerStarted;
      // Follow-ups running here stop early and stay due, for another replica (or a restart) to resume.
      await engine.stop();
      await reader?.stop();
      // Redraws and notices under way end before the store closes under them.
      await settled();
      await store.close();
      await api.stop();
    },
  };
}
