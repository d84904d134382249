/**
 * The probes and /metrics of every replica: a Slack replica serves them on
 * its HTTP port (beside /slack/events in HTTP mode, on their own in Socket
 * Mode), a worker (HARBOR_ROLE=worker) on PORT; either on HARBOR_METRICS_PORT
 * when set. Two questions, two probes:
 *
 * - `/livez`: is the process healthy (its event loop keeps time; on a worker,
 *   its housekeeping loops keep passing too)? Failing it gets the pod
 *   restarted, so it asks nothing of Slack or the database: an outage of
 *   either must not restart every replica.
 * - `/readyz` (and `/healthz`, its older name): should work be sent here?
 *   What the replica needs answers (a Slack replica: Slack; a worker: the
 *   hosting API is configured), the store takes a write, and the replica is
 *   not shutting down.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CoreMetrics } from '../runtime/metrics.js';
import { StoreError, UNWRITABLE } from '../store/errors.js';

/** The paths the probes and metrics answer on; the deployment manifests use these. */
export const PROBE_PATHS = {
  live: '/livez',
  ready: '/readyz',
  /** The readiness probe's first name, kept for existing load balancers and monitors. */
  readyAlias: '/healthz',
  metrics: '/metrics',
} as const;

/**
 * What readiness asks. Each replica names the dependencies it has besides the
 * store: a Slack replica `slackConnected`, a worker `apiConfigured`; one it
 * does not have is neither asked nor reported.
 */
interface HealthSources {
  /** Whether Slack is reachable: auth.test passed (HTTP) or the socket is open (Socket Mode). */
  slackConnected?(): boolean;
  /**
   * Whether the hosting API the replica acts on is the configured one (GAMEFABRIC_URL and its
   * credentials), not the embedded demo simulator a replica falls back to without them.
   */
  apiConfigured?(): boolean;
  /** Resolves when the store answers and takes a write (StoreError code UNWRITABLE when only the write fails). */
  pingStore(): Promise<void>;
  /** True once shutdown began: readiness turns 503 before the listener closes. */
  draining?(): boolean;
}

interface HealthReport {
  ready: boolean;
  /** A Slack replica's. */
  slack?: 'connected' | 'disconnected';
  /** A worker's: `simulator` is the embedded demo API (no GAMEFABRIC_URL), whose servers are not real. */
  api?: 'configured' | 'simulator';
  /** `unwritable`: it answers reads but refuses writes (full disk, read-only), so it cannot record a change. */
  store: 'ok' | 'unreachable' | 'unwritable';
  /** Present (true) while shutting down. */
  draining?: true;
}

const STORE_PING_TIMEOUT_MS = 2_000;

/** Checks each dependency; never throws. */
export async function checkHealth(sources: HealthSources): Promise<HealthReport> {
  const slack = sources.slackConnected
    ? sources.slackConnected()
      ? 'connected'
      : 'disconnected'
    : undefined;
  const api = sources.apiConfigured ? (sources.apiConfigured() ? 'configured' : 'simulator') : undefined;
  let store: HealthReport['store'] = 'ok';
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sources.pingStore(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('store ping timed out')), STORE_PING_TIMEOUT_MS);
        timer.unref();
      }),
    ]);
  } catch (err) {
    store = err instanceof StoreError && err.code === UNWRITABLE ? 'unwritable' : 'unreachable';
  } finally {
    clearTimeout(timer);
  }
  const draining = sources.draining?.() === true;
  return {
    ready: slack !== 'disconnected' && api !== 'simulator' && store === 'ok' && !draining,
    ...(slack ? { slack } : {}),
    ...(api ? { api } : {}),
    store,
    ...(draining ? { draining: true as const } : {}),
  };
}

/** One GET route of the probes or metrics, usable as a Bolt custom route or on the metrics port. */
export interface OpsRoute {
  path: string;
  handler(req: IncomingMessage, res: ServerResponse): void;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * The probe routes (/livez, /readyz, /healthz) and /metrics (Prometheus text). `liveness` is
 * answered as it reports (its JSON is the body), 503 unless `live`.
 */
export function healthRoutes(
  sources: HealthSources & { liveness(): { live: boolean } },
  metrics: Pick<CoreMetrics, 'registry'>,
): OpsRoute[] {
  const readiness: OpsRoute['handler'] = (_req, res) => {
    void checkHealth(sources).then((report) => json(res, report.ready ? 200 : 503, report));
  };
  return [
    {
      path: PROBE_PATHS.live,
      handler: (_req, res) => {
        const report = sources.liveness();
        json(res, report.live ? 200 : 503, report);
      },
    },
    { path: PROBE_PATHS.ready, handler: readiness },
    { path: PROBE_PATHS.readyAlias, handler: readiness },
    {
      path: PROBE_PATHS.metrics,
      handler: (_req, res) => {
        void metrics.registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': metrics.registry.contentType });
            res.end(text);
          },
          () => {
            res.writeHead(500);
            res.end();
          },
        );
      },
    },
  ];
}
