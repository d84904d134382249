/**
 * Builds the platform-neutral core (hosting API, store, policy, change engine)
 * from the config, and runs its housekeeping: recovering changes a crashed
 * process left applying, and expiring changes nobody acted on.
 */
import { ChangeEngine } from '../changes/engine.js';
import type { Config } from '../config/config.js';
import { loadPolicy } from '../policy/index.js';
import type { PolicyContext } from '../policy/types.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/types.js';
import { connectHostingApi, type HostingApi } from './hosting-api.js';

export interface Core {
  api: HostingApi;
  store: Store;
  engine: ChangeEngine;
  stop(): Promise<void>;
}

const HOUSEKEEPING_MS = 30_000;

/** Opens every part; the caller supplies how policy user groups are resolved (Slack, later). */
export async function startCore(
  config: Config,
  logger: Logger,
  groups: Pick<PolicyContext, 'resolveGroup' | 'resolveChannelName'>,
  clock: Clock = systemClock,
): Promise<Core> {
  const api = await connectHostingApi(config.gamefabric, logger);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
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
  });

  const housekeeping = async () => {
    try {
      const recovered = await engine.recoverInterrupted();
      for (const c of recovered)
        logger.warn('recovered an interrupted change', { changeId: c.id, status: c.status });
      await engine.expireDue();
    } catch (err) {
      logger.error('housekeeping failed', { error: err });
    }
  };
  await housekeeping();
  const timer = setInterval(housekeeping, HOUSEKEEPING_MS);
  timer.unref();

  return {
    api,
    store,
    engine,
    stop: async () => {
      clearInterval(timer);
      await store.close();
      await api.stop();
    },
  };
}
