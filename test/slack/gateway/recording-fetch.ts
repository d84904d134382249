/**
 * A Web API transport for the gateway's client in unit tests and benches:
 * it records each call (method, arguments, the clock's time when it left)
 * and answers as Slack would, or with a 429 the test asks for. No sockets,
 * so a ManualClock's time is the time each call went out.
 */
import type { FetchFunction } from '@slack/web-api';
import { Headers, Response } from 'node-fetch';
import type { Clock } from '../../../src/runtime/clock.js';

export interface RecordedSlackCall {
  method: string;
  args: Record<string, unknown>;
  at: number;
}

export interface RecordingFetch {
  fetch: FetchFunction;
  calls: RecordedSlackCall[];
  /** The next call of `method` is answered 429 with Retry-After `seconds`. */
  rateLimitNext(method: string, seconds: number): void;
  /** Calls of `method` wait until `release` is called (a call under way). */
  hold(method: string): { release(): void };
}

export function recordingFetch(clock: Clock): RecordingFetch {
  const calls: RecordedSlackCall[] = [];
  const limited = new Map<string, number>();
  const held = new Map<string, Promise<void>>();
  let ts = 0;
  const fetch = (async (input: Parameters<FetchFunction>[0], init?: Parameters<FetchFunction>[1]) => {
    const url = typeof input === 'string' ? input : input.href;
    const method = url.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '';
    const body = typeof init?.body === 'string' ? init.body : '';
    const args: Record<string, unknown> = body.startsWith('{')
      ? (JSON.parse(body) as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(body));
    const seconds = limited.get(method);
    if (seconds !== undefined) {
      limited.delete(method);
      calls.push({ method, args, at: clock.now() });
      return new Response(JSON.stringify({ ok: false, error: 'ratelimited' }), {
        status: 429,
        headers: new Headers({ 'content-type': 'application/json', 'retry-after': String(seconds) }),
      });
    }
    calls.push({ method, args, at: clock.now() });
    await held.get(method);
    ts += 1;
    const answer = { ok: true, ts: `1700000000.${String(ts).padStart(6, '0')}`, channel: args.channel };
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: new Headers({ 'content-type': 'application/json' }),
    });
  }) as unknown as FetchFunction;
  return {
    fetch,
    calls,
    rateLimitNext: (method, seconds) => limited.set(method, seconds),
    hold: (method) => {
      let release: () => void = () => {};
      held.set(
        method,
        new Promise<void>((resolve) => {
          release = () => {
            held.delete(method);
            resolve();
          };
        }),
      );
      return { release };
    },
  };
}
