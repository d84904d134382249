/**
 * The local workspace's page on the bot's HTTP port: the HTML shell, its
 * script and styles, the viewer's state, a server-sent event stream that says
 * "something changed" (so edits show in place), and the verbs the page posts.
 * POSTs must be JSON from this page's own origin: another site open in the
 * same browser cannot drive the workspace.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from './http-body.js';
import type { Interactions, Outcome } from './interactions.js';
import type { PageAssets } from './page-assets.js';
import type { PageState } from './page-state.js';

/** A route in the shape Bolt's `customRoutes` take (the workspace does not import Bolt). */
export interface WorkspaceRoute {
  path: string;
  method: string[];
  handler(req: IncomingMessage, res: ServerResponse): void;
}

interface PageRoutesOptions {
  assets: () => Promise<PageAssets>;
  state(viewer: string): PageState;
  interactions: Interactions;
  /** Registers a listener for changes; returns an unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Open event streams are ended through this when the workspace stops. */
  streams: Set<ServerResponse>;
}

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbormaster local workspace</title>
<link rel="stylesheet" href="/workspace/app.css">
</head>
<body>
<div id="app">Loading the local workspace…</div>
<script type="module" src="/workspace/app.js"></script>
</body>
</html>
`;

/** The page's routes. */
export function pageRoutes(o: PageRoutesOptions): WorkspaceRoute[] {
  const send = (res: ServerResponse, type: string, body: string) => {
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const verb =
    (run: (body: Record<string, unknown>) => Promise<Outcome>) =>
    (req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        if (!sameOrigin(req)) return sendJson(res, 403, { ok: false, error: 'cross_origin_request' });
        if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
          return sendJson(res, 415, { ok: false, error: 'expected application/json' });
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(await readBody(req)) as Record<string, unknown>;
        } catch {
          return sendJson(res, 400, { ok: false, error: 'invalid_json' });
        }
        sendJson(res, 200, await run(body));
      })().catch(() => {
        if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'workspace_error' });
      });
    };
  return [
    { path: '/', method: ['GET'], handler: (_req, res) => send(res, 'text/html; charset=utf-8', HTML) },
    {
      path: '/favicon.ico',
      method: ['GET'],
      handler: (_req, res) => {
        res.writeHead(204);
        res.end();
      },
    },
    {
      path: '/workspace/app.js',
      method: ['GET'],
      handler: (_req, res) =>
        void o.assets().then((a) => send(res, 'text/javascript; charset=utf-8', a.script)),
    },
    {
      path: '/workspace/app.css',
      method: ['GET'],
      handler: (_req, res) => void o.assets().then((a) => send(res, 'text/css; charset=utf-8', a.styles)),
    },
    {
      path: '/workspace/state',
      method: ['GET'],
      handler: (req, res) => {
        const viewer = new URL(req.url ?? '/', 'http://workspace').searchParams.get('user') ?? '';
        sendJson(res, 200, o.state(viewer));
      },
    },
    {
      path: '/workspace/stream',
      method: ['GET'],
      handler: (req, res) => {
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-store',
          connection: 'keep-alive',
        });
        res.write('retry: 1000\n\n');
        o.streams.add(res);
        const off = o.onChange(() => res.write('event: change\ndata: {}\n\n'));
        req.on('close', () => {
          off();
          o.streams.delete(res);
        });
      },
    },
    {
      path: '/workspace/command',
      method: ['POST'],
      handler: verb((b) => o.interactions.command(b as never)),
    },
    { path: '/workspace/action', method: ['POST'], handler: verb((b) => o.interactions.action(b as never)) },
    {
      path: '/workspace/suggest',
      method: ['POST'],
      handler: verb((b) => o.interactions.suggest(b as never)),
    },
    {
      path: '/workspace/home',
      method: ['POST'],
      handler: verb((b) => o.interactions.openHome(String(b.user))),
    },
    {
      path: '/workspace/shortcut',
      method: ['POST'],
      handler: verb((b) => o.interactions.shortcut(b as never)),
    },
    { path: '/workspace/submit', method: ['POST'], handler: verb((b) => o.interactions.submit(b as never)) },
    {
      path: '/workspace/close',
      method: ['POST'],
      handler: verb((b) => o.interactions.close(String(b.user), String(b.viewId), b.clear === true)),
    },
  ];
}

// A browser always sends Origin on a cross-site POST; it must name the host the page came from.
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
