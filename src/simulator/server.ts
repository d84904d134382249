/**
 * The node:http server: control endpoints, then for /api and /auth requests
 * the request log, injected faults, a reconcile, authentication, routing,
 * permission checks and the handler. Every error becomes a Status body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EmitLines, handleControl } from './control.js';
import { faultError } from './faults.js';
import { RequestContext } from './http-utils/context.js';
import { reasonForCode, SimError } from './http-utils/status.js';
import { matchRoute } from './routes.js';
import type { SimServices } from './services.js';
import { writeStatus } from './status-writes.js';
import type { SimMethod } from './types.js';

/** Starts listening on 127.0.0.1:`port` (0 = a free port); resolves with the server and its base URL. */
/** Where the real-shapes token endpoint redirects to (Keycloak's path). */
const TOKEN_REDIRECT_PATH = '/auth/realms/gamefabric/protocol/openid-connect/token';

export async function listen(
  svc: SimServices,
  emit: EmitLines,
  port: number,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void dispatch(req, res, svc, emit);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${address.port}` };
}

async function dispatch(
  req: IncomingMessage,
  res: ServerResponse,
  svc: SimServices,
  emit: EmitLines,
): Promise<void> {
  const ctx = new RequestContext(req, res);
  const started = svc.clock.now();
  try {
    if (ctx.path === '/_sim' || ctx.path.startsWith('/_sim/')) {
      await handleControl(ctx, svc, emit);
      return;
    }
    if (!ctx.path.startsWith('/api/') && !ctx.path.startsWith('/auth/')) {
      throw new SimError(404, 'NotFound', 'the server could not find the requested resource');
    }
    ctx.entry = svc.requests.start(started, ctx.method, ctx.path, ctx.query);
    // At debug: local mode's watches poll every few seconds, and these lines would bury its start-up lines.
    res.on('close', () => {
      svc.logger.debug('request', {
        method: ctx.method,
        path: ctx.path,
        status: ctx.entry?.status ?? 0,
        ms: svc.clock.now() - started,
      });
    });
    await handleApi(ctx, svc);
  } catch (err) {
    if (err instanceof SimError) {
      ctx.error(err);
      return;
    }
    svc.logger.error('handler failed', { method: ctx.method, path: ctx.path, err });
    ctx.error(new SimError(500, 'InternalError', `internal error: ${(err as Error).message}`));
  }
}

/** "Conflict", "Bad Gateway": what a gateway writes in a plain-text error. */
function reasonPhrase(code: number): string {
  return reasonForCode(code).replace(/([a-z])([A-Z])/g, '$1 $2');
}

async function handleApi(ctx: RequestContext, svc: SimServices): Promise<void> {
  const fault = svc.faults.decide(ctx.method, ctx.path);
  if (fault.latencyMs > 0) {
    svc.held.hold(ctx);
    try {
      await svc.clock.sleep(fault.latencyMs, ctx.closed);
    } catch {
      return; // the client gave up while we were "slow"
    } finally {
      svc.held.release(ctx);
    }
  }
  if (fault.drop) return ctx.drop();
  if (fault.status !== undefined && fault.plainText)
    return ctx.text(fault.status, reasonPhrase(fault.status));
  if (fault.status !== undefined) return ctx.error(faultError(fault));
  if (fault.cutAfterLines !== undefined) ctx.cutAfterLines = fault.cutAfterLines;
  if (fault.afterWrite === 'land-late') {
    // Keep the body, say nothing until the client gives up, then apply the request anyway.
    await ctx.holdBody();
    svc.held.hold(ctx); // until the client gives up
    await new Promise<void>((resolve) =>
      ctx.closed.aborted ? resolve() : ctx.closed.addEventListener('abort', () => resolve(), { once: true }),
    );
    ctx.discardAnswers();
    await svc.clock.sleep(fault.landAfterMs ?? 60_000);
  } else if (fault.afterWrite) {
    ctx.answerFault = fault.afterWrite;
    ctx.onHold = () => svc.held.hold(ctx);
  }

  svc.sync();
  if (fault.writeStatusFirst) writeStatus(svc.store, ctx.path);
  if (ctx.path === '/auth/token' && svc.settings.realShapes) {
    // The docs log in with `curl -L --location-trusted`: the token endpoint redirects.
    ctx.json(308, { location: TOKEN_REDIRECT_PATH }, { location: TOKEN_REDIRECT_PATH });
    return;
  }
  if (ctx.path === '/auth/token' || ctx.path === TOKEN_REDIRECT_PATH) return svc.auth.handleTokenRequest(ctx);
  if (ctx.path.startsWith('/auth/'))
    throw new SimError(404, 'NotFound', 'the server could not find the requested resource');

  const account = svc.auth.authenticate(ctx.req.headers.authorization);
  if (ctx.entry) ctx.entry.account = account.name;
  const match = matchRoute(ctx.path);
  if (!match) throw new SimError(404, 'NotFound', 'the server could not find the requested resource');
  const handler = match.route.handlers[ctx.method as SimMethod];
  if (!handler) {
    const allow = Object.keys(match.route.handlers).join(', ');
    throw new SimError(
      405,
      'MethodNotAllowed',
      `method ${ctx.method} is not allowed on ${ctx.path} (allowed: ${allow})`,
      undefined,
      {
        allow,
      },
    );
  }
  svc.auth.authorize(account, match.route.resource, ctx.method, ctx.path);
  await handler(ctx, match.params, svc);
}
