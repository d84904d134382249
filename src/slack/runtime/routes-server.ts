/**
 * The bot's extra HTTP routes (probes, metrics, the local workspace page) in
 * Socket Mode. Bolt's Socket Mode receiver would serve them on a port it
 * binds without a host, so on every interface even with
 * HARBOR_LISTEN_HOST=127.0.0.1; here they are served on the configured
 * interface, as the HTTP receiver does.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';

export interface RoutesServer {
  /** The port bound (the one asked for, or the one the system chose for 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `routes` (exact paths, their methods) on `port` of `host` (all interfaces when undefined). */
export async function startRoutesServer(
  routes: readonly CustomRoute[],
  port: number,
  host?: string,
): Promise<RoutesServer> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const onPath = routes.filter((r) => r.path === path);
    const route = onPath.find((r) => methodsOf(r).includes(req.method ?? 'GET'));
    if (route) {
      route.handler(Object.assign(req, { params: {} }), res);
      return;
    }
    if (onPath.length > 0) {
      res.writeHead(405, { allow: onPath.flatMap(methodsOf).join(', ') });
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found.');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function methodsOf(route: CustomRoute): string[] {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.map((m) => m.toUpperCase());
}
