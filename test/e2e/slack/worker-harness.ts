/**
 * A Slack replica (the e2e bot) and a worker replica (HARBOR_ROLE=worker,
 * issue 39) on one store: the bot's SQLite file, or a fresh PostgreSQL
 * schema. The bot reads the outbox only when housekept (and, on PostgreSQL,
 * when NOTIFY wakes it), never on a timer; the worker keeps a ManualClock the
 * test moves, so everything the worker does happens when the test says.
 */

import { ManualClock } from '../../../src/runtime/clock.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { type RunningWorker, startWorker } from '../../../src/startup/start-worker.js';
import { type BotHarness, e2eConfig, startBotHarness } from './bot-harness.js';
import { pgStore } from './pg-schema.js';

export interface BotAndWorker {
  bot: BotHarness;
  worker: RunningWorker;
  /** The worker's clock (its lifecycle, guards and follow-ups run on it). */
  clock: ManualClock;
  /** The worker's logs. */
  logs: ReturnType<typeof createMemoryLogger>;
  stop(): Promise<void>;
}

/** Starts a Slack replica and a worker on one store of `kind`, both under `policy`. */
export async function startBotAndWorker(
  kind: 'sqlite' | 'postgres',
  options: Omit<NonNullable<Parameters<typeof startBotHarness>[0]>, 'databaseUrl' | 'outboxClock'> = {},
): Promise<BotAndWorker> {
  const db = kind === 'postgres' ? await pgStore() : undefined;
  const databaseUrl = db?.url;
  const bot = await startBotHarness({
    ...options,
    outboxClock: new ManualClock(),
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const clock = new ManualClock(Date.now());
  const logs = createMemoryLogger();
  const config = await e2eConfig({
    slackApiUrl: 'http://127.0.0.1:9/unused',
    sim: bot.sim,
    dataDir: bot.dataDir,
    replicaId: 'worker-1',
    // The worker reads the same policy file as the bot (e2eConfig writes it).
    ...(options.policy ? { policy: options.policy } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const worker = await startWorker({ ...config, role: 'worker' }, logs, {
    clock,
    follow: { pollMs: 10, timeoutMs: 10_000 },
  });
  return {
    bot,
    worker,
    clock,
    logs,
    stop: async () => {
      await worker.stop();
      await bot.stop();
      await db?.drop();
    },
  };
}

/**
 * Runs the one follow-up under way on `engine` to its end on its ManualClock: each time it parks
 * on its poll's sleep (beside its lease's heartbeat: two sleepers), the clock moves past the poll.
 */
export async function followUpsOn(
  clock: ManualClock,
  engine: { followUpsDone(): Promise<void> },
  pollMs = 10,
): Promise<void> {
  let over = false;
  const done = engine.followUpsDone().then(() => {
    over = true;
  });
  // A bound, so a follow-up that never ends fails the test instead of hanging it (10 s of polls).
  for (let i = 0; i < 1_000 && !over; i++) {
    await Promise.race([done, clock.whenSleeping(2)]);
    if (!over) await clock.advance(pollMs);
  }
  if (!over) throw new Error(`the follow-ups did not end (${clock.pendingSleeps} asleep)`);
}
