/**
 * GET .../vessels/{name}/logs (seed 5): plain text lines. Without follow the
 * recent lines (`tailLines=N` for the last N); with `follow=true` the recent
 * lines and then new ones over a kept-open chunked response, paced by the
 * injected clock, until the Vessel is gone or the client disconnects.
 */
import type { ServerResponse } from 'node:http';
import type { RequestContext } from './http-utils/context.js';
import { badRequest, notFound } from './http-utils/status.js';
import { isGone, type VesselRecord, vesselPhase } from './lifecycle.js';
import { LineGenerator, type LogBuffer } from './log-lines.js';
import type { OpenStream } from './log-streams.js';
import type { Handler, SimServices } from './services.js';

const TEXT = 'text/plain; charset=utf-8';

function parseBool(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw badRequest(`invalid ${name} "${value}": expected true or false`);
}

function parseTail(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw badRequest(`invalid tailLines "${value}": expected a non-negative integer`);
  return Number(value);
}

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** GET .../environments/{env}/vessels/{name}/logs */
export const getVesselLogs: Handler = async (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const rec = environment.vessels.get(name);
  if (!rec) throw notFound('Vessel', name, `environment "${env}"`);
  const containers = rec.vessel.spec.template.spec.containers.map((c) => c.name);
  const container = ctx.query.container ?? containers[0] ?? '';
  const buffer = rec.logs.get(container);
  if (!buffer) {
    throw badRequest(
      `container "${container}" is not valid for vessel "${name}": choose one of [${containers.join(', ')}]`,
    );
  }
  const follow = parseBool(ctx.query.follow, 'follow');
  const tailLines = parseTail(ctx.query.tailLines);
  // --log-replay: tailLines is not documented; an API that ignores it replays everything it has.
  const recent = buffer.tail(svc.settings.logReplay ? undefined : tailLines);

  if (!follow) {
    const cut = ctx.cutAfterLines;
    if (cut !== undefined && recent.length > cut) {
      ctx.writeHead(200, { 'content-type': TEXT });
      cutAfter(ctx.res, joinLines(recent.slice(0, cut)));
      return;
    }
    ctx.text(200, joinLines(recent));
    return;
  }
  await followLogs(ctx, svc, { env, rec, container, first: container === containers[0], recent, buffer });
};

interface FollowTarget {
  env: string;
  rec: VesselRecord;
  container: string;
  first: boolean;
  recent: string[];
  buffer: LogBuffer;
}

/** Writes the chunk, then destroys the connection (an injected cut-off: the client sees a premature end). */
function cutAfter(res: ServerResponse, chunk: string): void {
  if (chunk === '') res.destroy();
  else res.write(chunk, () => res.destroy());
}

async function followLogs(ctx: RequestContext, svc: SimServices, target: FollowTarget): Promise<void> {
  const { res } = ctx;
  const { clock, settings } = svc;
  const { env, rec, container } = target;
  const vessel = rec.vessel.metadata.name;
  const stop = new AbortController();
  const onClientGone = () => stop.abort();
  ctx.closed.addEventListener('abort', onClientGone, { once: true });
  let written = 0;
  let done = false;

  const finish = (how: 'end' | 'cut' | 'client') => {
    if (done) return;
    done = true;
    svc.logStreams.unregister(stream);
    ctx.closed.removeEventListener('abort', onClientGone);
    stop.abort();
    if (how === 'end') res.end();
  };

  /** Writes lines; returns false when the caller should wait for 'drain'. */
  const deliver = (lines: readonly string[]): boolean => {
    if (done || lines.length === 0) return true;
    const cut = ctx.cutAfterLines;
    if (cut !== undefined && written + lines.length >= cut) {
      const part = lines.slice(0, cut - written);
      written += part.length;
      finish('cut');
      cutAfter(res, joinLines(part));
      return true;
    }
    written += lines.length;
    return res.write(joinLines(lines));
  };

  const stream: OpenStream = {
    env,
    vessel,
    container,
    deliver: (lines) => {
      deliver(lines);
    },
    end: () => finish('end'),
  };

  ctx.writeHead(200, {
    'content-type': TEXT,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  res.flushHeaders(); // so the client sees the response start before the first line
  svc.logStreams.register(stream);
  if (ctx.cutAfterLines === 0) {
    finish('cut');
    cutAfter(res, '');
    return;
  }
  deliver(target.recent);

  const rate = settings.logLinesPerSecond;
  // Batch per tick: at most 20 ticks a second however high the rate, and at least one line per tick at low rates.
  const tickMs = rate > 0 ? Math.min(1000, Math.max(50, Math.floor(1000 / rate))) : 1000;
  const generator = new LineGenerator(container, target.first);
  let last = clock.now();
  let carry = 0;

  while (!done) {
    try {
      await clock.sleep(tickMs, stop.signal);
    } catch {
      break; // client gone or stream ended
    }
    if (done) break;
    const now = clock.now();
    if (isGone(rec, now, settings)) {
      svc.sync(); // purges the Vessel, which ends every stream following it (this one included)
      finish('end');
      break;
    }
    if (rate > 0 && vesselPhase(rec, now, settings)?.state === 'Running') {
      const due = carry + (rate * (now - last)) / 1000;
      // Never more than a second's worth at once: after a stall we pace on, we do not catch up.
      const count = Math.min(Math.floor(due), Math.ceil(rate));
      carry = count < Math.floor(due) ? 0 : due - count;
      if (count > 0) {
        const lines = generator.lines(count, last, now);
        target.buffer.push(lines);
        if (!deliver(lines) && !done) await drained(res, stop.signal);
      }
    }
    last = clock.now();
  }
  if (!done) finish('client');
}

function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.on('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
