/**
 * Control endpoints under /_sim for tests and demos (no auth, not recorded):
 * fault rules, the request log, pushing log lines and a health check.
 */

import { parseFaultRules } from './faults.js';
import { mediaType, parseJson, readBody } from './http-utils/body.js';
import type { RequestContext } from './http-utils/context.js';
import { badRequest, SimError } from './http-utils/status.js';
import { isRecord } from './json.js';
import type { SimServices } from './services.js';

/** Pushes lines to a Vessel's log (shared with Simulator.emitLogLines). */
export type EmitLines = (env: string, vessel: string, lines: string[], container?: string) => void;

/** Answers a /_sim request. */
export async function handleControl(ctx: RequestContext, svc: SimServices, emit: EmitLines): Promise<void> {
  const { method, path } = ctx;
  if (path === '/_sim/health' && method === 'GET') return ctx.json(200, { ok: true });
  const failing = /^\/_sim\/vessels\/([^/]+)\/([^/]+)\/fail$/.exec(path);
  if (failing && method === 'POST') return failVessel(ctx, svc, failing[1] ?? '', failing[2] ?? '');
  if (path === '/_sim/faults') {
    if (method === 'GET') return ctx.json(200, svc.faults.list());
    if (method === 'POST' || method === 'PUT') {
      svc.faults.set(parseFaultRules(parseJson(await readBody(ctx.req))));
      return ctx.json(200, svc.faults.list());
    }
    if (method === 'DELETE') {
      svc.faults.clear();
      return ctx.json(200, []);
    }
  }
  if (path === '/_sim/crashing-images' && method === 'POST') {
    // {branch, image, reason}: servers of that image crash on start; no reason: they run again.
    const body = parseJson(await readBody(ctx.req));
    if (!isRecord(body) || typeof body.branch !== 'string' || typeof body.image !== 'string')
      throw badRequest('expected {"branch": "...", "image": "<internal image name>", "reason": "..."}');
    const key = `${body.branch}/${body.image}`;
    if (typeof body.reason === 'string' && body.reason !== '') svc.store.crashingImages.set(key, body.reason);
    else svc.store.crashingImages.delete(key);
    return ctx.json(200, Object.fromEntries(svc.store.crashingImages));
  }
  const site = /^\/_sim\/sites\/([^/]+)$/.exec(path);
  if (site && method === 'POST') {
    // {state, reason, cordoned}: that Site's status from now on; {}: Connected again.
    const body = parseJson(await readBody(ctx.req));
    if (!isRecord(body)) throw badRequest('expected {"state": "Error", "reason": "...", "cordoned": false}');
    const name = decodeURIComponent(site[1] ?? '');
    const o = {
      ...(typeof body.state === 'string' ? { state: body.state } : {}),
      ...(typeof body.reason === 'string' ? { reason: body.reason } : {}),
      ...(typeof body.cordoned === 'boolean' ? { cordoned: body.cordoned } : {}),
    };
    if (Object.keys(o).length > 0) svc.store.siteOverrides.set(name, o);
    else svc.store.siteOverrides.delete(name);
    return ctx.json(200, Object.fromEntries(svc.store.siteOverrides));
  }
  if (path === '/_sim/requests') {
    if (method === 'GET') return ctx.json(200, svc.requests.entries);
    if (method === 'DELETE') {
      svc.requests.clear();
      return ctx.json(200, []);
    }
  }
  const logs = /^\/_sim\/logs\/([^/]+)\/([^/]+)$/.exec(path);
  if (logs && method === 'POST') {
    const text = await readBody(ctx.req);
    const lines =
      mediaType(ctx.req) === 'application/json' ? jsonLines(parseJson(text)) : text.split(/\r?\n/);
    emit(
      decodeURIComponent(logs[1] ?? ''),
      decodeURIComponent(logs[2] ?? ''),
      dropTrailingEmpty(lines),
      ctx.query.container,
    );
    ctx.res.writeHead(204).end();
    return;
  }
  throw new SimError(404, 'NotFound', `no control endpoint ${method} ${path}`);
}

function jsonLines(body: unknown): string[] {
  const lines = isRecord(body) ? body.lines : body;
  if (!Array.isArray(lines) || lines.some((l) => typeof l !== 'string')) {
    throw badRequest('expected {"lines": ["...", ...]} or a JSON array of strings');
  }
  return lines as string[];
}

function dropTrailingEmpty(lines: string[]): string[] {
  return lines.length > 0 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
}

/**
 * {reason}: the Vessel goes to Error with that reason (a watch sees it on its
 * next listing); {}: it starts again from Pending, as after a restart.
 */
async function failVessel(
  ctx: RequestContext,
  svc: SimServices,
  envName: string,
  name: string,
): Promise<void> {
  const body = parseJson(await readBody(ctx.req));
  if (!isRecord(body))
    throw badRequest('expected {"reason": "..."} to fail the vessel, or {} to start it again');
  const env = svc.store.environment(decodeURIComponent(envName));
  const rec = env.vessels.get(decodeURIComponent(name));
  if (!rec) throw new SimError(404, 'NotFound', `vessel "${decodeURIComponent(name)}" not found`);
  if (typeof body.reason === 'string' && body.reason !== '') rec.error = body.reason;
  else if (rec.error !== undefined) {
    delete rec.error;
    rec.startedAt = svc.clock.now();
  }
  return ctx.json(200, { name: rec.vessel.metadata.name, ...(rec.error ? { error: rec.error } : {}) });
}
