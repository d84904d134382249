/**
 * Connects to the configured hosting API, or, when no GAMEFABRIC_URL is set,
 * starts the embedded simulator with demo data so the bot runs out of the box.
 */

import type { GameFabricConfig } from '../config/config.js';
import { createGameFabricClient, type GameFabricClient } from '../gamefabric/client.js';
import type { Logger } from '../runtime/logger.js';
import type { CoreMetrics } from '../runtime/metrics.js';
import { measuredFetch } from './measured-fetch.js';

export interface HostingApi {
  client: GameFabricClient;
  /** Set when the embedded simulator is serving the API. */
  simulatorUrl?: string;
  stop(): Promise<void>;
}

/** The API client for the configured service, or for an embedded simulator. */
export async function connectHostingApi(
  config: GameFabricConfig,
  logger: Logger,
  metrics?: CoreMetrics,
): Promise<HostingApi> {
  const fetch = metrics ? measuredFetch(metrics) : undefined;
  if (config.url && config.auth) {
    const client = createGameFabricClient({
      baseUrl: config.url,
      auth: config.auth,
      timeoutMs: config.timeoutMs,
      vesselApiVersion: config.vesselApiVersion,
      logger: logger.child({ component: 'gamefabric' }),
      ...(fetch ? { fetch } : {}),
    });
    return { client, stop: async () => {} };
  }
  // Loaded only here: a replica on a real API never pays for the simulator's modules (see docs/memory.md).
  const { startSimulator, DEMO_CRASHING_IMAGES, internalImageName } = await import('../simulator/index.js');
  const sim = await startSimulator({ port: 0, logger: logger.child({ component: 'simulator' }) });
  // The demo's bad build, to try a guarded rollout on (local mode's help says how).
  for (const c of DEMO_CRASHING_IMAGES)
    sim.setCrashingImage(c.branch, internalImageName(c.branch, c.image, c.tag), c.reason);
  logger.warn(
    `NO GAMEFABRIC_URL SET: using the embedded API simulator with demo data at ${sim.url}. Nothing you do reaches real game servers. Set GAMEFABRIC_URL and GAMEFABRIC_TOKEN to use your hosting API.`,
  );
  const client = createGameFabricClient({
    baseUrl: sim.url,
    auth: { token: sim.token },
    timeoutMs: config.timeoutMs,
    vesselApiVersion: config.vesselApiVersion,
    logger: logger.child({ component: 'gamefabric' }),
    ...(fetch ? { fetch } : {}),
  });
  return { client, simulatorUrl: sim.url, stop: () => sim.stop() };
}
