/**
 * `/healthz` and `/metrics`, served on the bot's HTTP port (beside
 * /slack/events in HTTP mode, on their own in Socket Mode). Ready means Slack
 * is connected and the store answers: a load balancer or Kubernetes should not
 * send work to a replica that cannot record or post it.
 */
import type { CustomRoute } from '@slack/bolt';
import type { Metrics } from '../../runtime/metrics.js';
import { StoreError, UNWRITABLE } from '../../store/errors.js';

interface HealthSources {
  /** Whether Slack is reachable: auth.test passed (HTTP) or the socket is open (Socket Mode). */
  slackConnected(): boolean;
  /** Resolves when the store answers and takes a write (StoreError code UNWRITABLE when only the write fails). */
  pingStore(): Promise<void>;
}

interface HealthReport {
  ready: boolean;
  slack: 'connected' | 'disconnected';
  /** `unwritable`: it answers reads but refuses writes (full disk, read-only), so it cannot record a change. */
  store: 'ok' | 'unreachable' | 'unwritable';
}

const STORE_PING_TIMEOUT_MS = 2_000;

/** Checks each dependency; never throws. */
export async function checkHealth(sources: HealthSources): Promise<HealthReport> {
  const slack = sources.slackConnected() ? 'connected' : 'disconnected';
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
  return { ready: slack === 'connected' && store === 'ok', slack, store };
}

/** Bolt custom routes for /healthz (200 ready, 503 not) and /metrics (Prometheus text). */
export function healthRoutes(sources: HealthSources, metrics: Metrics): CustomRoute[] {
  return [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        void checkHealth(sources).then((report) => {
          res.writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json' });
          res.end(JSON.stringify(report));
        });
      },
    },
    {
      path: '/metrics',
      method: ['GET'],
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
