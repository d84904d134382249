/**
 * The probes and /metrics on a port of their own: a Slack replica's with
 * HARBOR_METRICS_PORT, so the port an Ingress exposes serves only
 * /slack/events, and Prometheus and the kubelet reach the bot on one that
 * stays inside the cluster; a worker's (which serves nothing else) on
 * HARBOR_METRICS_PORT or PORT. It binds the interface of HARBOR_LISTEN_HOST.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpsRoute } from './health.js';

export interface OpsServer {
  /** The bound port (useful with HARBOR_METRICS_PORT=0). */
  port: number;
  close(): Promise<void>;
}

/** Starts serving `routes` (GET and HEAD only) on `port` of `host` (all interfaces when undefined). */
export async function startOpsServer(routes: OpsRoute[], port: number, host?: string): Promise<OpsServer> {
  const byPath = new Map(routes.map((r) => [r.path, r]));
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = byPath.get(path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Not found: this port serves ${[...byPath.keys()].join(', ')}.`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    route.handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
