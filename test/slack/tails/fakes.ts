/**
 * Test doubles for the tail loop's two injected edges: a log source whose
 * stream the test feeds, cuts and ends, and a Slack poster that keeps the
 * messages and can answer 429 or fail. Both are plain objects behind the
 * interfaces the runner takes (TailLogSource, TailSlack); the end-to-end tests
 * use the real simulator and Slack stand-in instead.
 */

import type { Vessel } from '../../../src/api-shapes/resources.js';
import { ApiError } from '../../../src/gamefabric/errors.js';
import type { SlackMessage } from '../../../src/slack/render/message.js';
import type { TailSlack } from '../../../src/slack/tails/slack-calls.js';
import type { MessageMethod } from '../../../src/slack-budget/budget.js';
import { writeOfMethod } from '../../../src/slack-budget/tail-pacer.js';
import { RateLimited } from '../../../src/tails/messenger.js';
import type { TailLogSource } from '../../../src/tails/tail-stream.js';

interface OpenStream {
  queue: string[];
  end?: 'cut' | 'end';
  wake?: () => void;
}

function apiError(status: number, path = '/logs'): ApiError {
  return new ApiError({
    status,
    message: `GET ${path}: status ${status}`,
    apiMessage: `status ${status}`,
    request: { method: 'GET', path },
  });
}

/** A Vessel's log the test writes to; one open stream at a time, like one tail's connection. */
export class FakeLogSource implements TailLogSource {
  /** tailLines asked for on each connect, in order. */
  readonly asked: Array<number | undefined> = [];
  private current: OpenStream | undefined;
  private deleted = false;
  private openWaiters: (() => void)[] = [];

  /** True while a stream is open. */
  get open(): boolean {
    return this.current !== undefined;
  }

  /** Resolves once a stream is open (at once if one is): the tail connected. */
  whenOpen(): Promise<void> {
    if (this.current) return Promise.resolve();
    return new Promise<void>((resolve) => this.openWaiters.push(resolve));
  }

  /** Lines emitted but not yet read by the tail. */
  get pending(): number {
    return this.current?.queue.length ?? 0;
  }

  streamVesselLogs(
    _env: string,
    _name: string,
    opts?: { container?: string; tailLines?: number; signal?: AbortSignal },
  ): AsyncIterable<string> {
    this.asked.push(opts?.tailLines);
    return this.follow(opts?.signal);
  }

  async getVessel(env: string, name: string): Promise<Vessel> {
    if (this.deleted) throw apiError(404, `/environments/${env}/vessels/${name}`);
    return { metadata: { name, environment: env } } as Vessel;
  }

  /** Lines arriving on the open stream. */
  emit(lines: string[]): void {
    if (!this.current) throw new Error('no open stream to emit on');
    this.current.queue.push(...lines);
    this.current.wake?.();
  }

  /** The connection drops (as a cut stream surfaces from the client: status 0). */
  cut(): void {
    if (!this.current) throw new Error('no open stream to cut');
    this.current.end = 'cut';
    this.current.wake?.();
  }

  /** The Vessel is gone: its stream ends and lookups answer 404. */
  deleteVessel(): void {
    this.deleted = true;
    if (this.current) {
      this.current.end = 'end';
      this.current.wake?.();
    }
  }

  private async *follow(signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
    if (this.deleted) throw apiError(404);
    const stream: OpenStream = { queue: [] };
    this.current = stream;
    for (const wake of this.openWaiters.splice(0)) wake();
    const onAbort = () => stream.wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        while (stream.queue.length > 0) {
          if (signal?.aborted) return;
          yield stream.queue.shift() as string;
        }
        if (signal?.aborted) return;
        if (stream.end === 'cut') throw apiError(0);
        if (stream.end === 'end') return;
        await new Promise<void>((resolve) => {
          stream.wake = resolve;
        });
        stream.wake = undefined;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.current === stream) this.current = undefined;
    }
  }
}

/** One call the fake Slack answered (or refused). */
export interface FakeCall {
  method: MessageMethod;
  channel: string;
  ts: string;
  threadTs?: string;
  message: SlackMessage;
  outcome: 'ok' | 'rate_limited' | 'failed';
}

/** Slack as the tail sees it: messages by ts, every call, and 429s or failures on demand. */
export class FakeSlack implements TailSlack {
  readonly calls: FakeCall[] = [];
  readonly messages = new Map<string, { threadTs?: string; message: SlackMessage }>();
  private seq = 0;
  private callWaiters: { match: (call: FakeCall) => boolean; resolve: () => void }[] = [];
  private refusals: Array<{ method: MessageMethod; kind: 'rate_limited' | 'failed'; retryAfterMs: number }> =
    [];

  /** The next call of `method` answers 429 with this Retry-After. */
  rateLimitNext(method: MessageMethod, retryAfterMs: number): void {
    this.refusals.push({ method, kind: 'rate_limited', retryAfterMs });
  }

  /** The next call of `method` fails with a non-rate-limit error. */
  failNext(method: MessageMethod): void {
    this.refusals.push({ method, kind: 'failed', retryAfterMs: 0 });
  }

  async post(channel: string, threadTs: string | undefined, message: SlackMessage): Promise<string> {
    const ts = `1700000000.${String(++this.seq).padStart(6, '0')}`;
    this.answer('chat.postMessage', channel, ts, message, threadTs);
    this.messages.set(ts, { ...(threadTs ? { threadTs } : {}), message });
    return ts;
  }

  async update(channel: string, ts: string, message: SlackMessage): Promise<void> {
    if (!this.messages.has(ts)) throw new Error(`message_not_found ${ts}`);
    this.answer('chat.update', channel, ts, message);
    const old = this.messages.get(ts);
    this.messages.set(ts, { ...(old?.threadTs ? { threadTs: old.threadTs } : {}), message });
  }

  /** Resolves once a call matching `match` has been answered (at once if one has): a wait on the call, not on turns. */
  whenCall(match: (call: FakeCall) => boolean): Promise<void> {
    if (this.calls.some(match)) return Promise.resolve();
    return new Promise<void>((resolve) => this.callWaiters.push({ match, resolve }));
  }

  /** Text and blocks of a message as one searchable string. */
  shown(ts: string): string {
    const m = this.messages.get(ts)?.message;
    return m ? `${m.text}\n${JSON.stringify(m.blocks)}` : '';
  }

  /** Successful calls of one method. */
  ok(method: MessageMethod): FakeCall[] {
    return this.calls.filter((c) => c.method === method && c.outcome === 'ok');
  }

  private answer(
    method: MessageMethod,
    channel: string,
    ts: string,
    message: SlackMessage,
    threadTs?: string,
  ) {
    const i = this.refusals.findIndex((r) => r.method === method);
    const refusal = i >= 0 ? this.refusals.splice(i, 1)[0] : undefined;
    const call = { method, channel, ts, ...(threadTs ? { threadTs } : {}), message };
    if (refusal) {
      this.record({ ...call, outcome: refusal.kind });
      if (refusal.kind === 'rate_limited') throw new RateLimited(writeOfMethod(method), refusal.retryAfterMs);
      throw new Error(`${method} failed: internal_error`);
    }
    this.record({ ...call, outcome: 'ok' });
  }

  /** Keeps the call and wakes who waits for it (their continuations run after the caller stores the message). */
  private record(call: FakeCall): void {
    this.calls.push(call);
    const ready = this.callWaiters.filter((w) => w.match(call));
    if (ready.length === 0) return;
    this.callWaiters = this.callWaiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }
}

/**
 * Resolves once every continuation that is ready has run. The tests on these
 * fakes run the tail code on in-memory objects, the synchronous SQLite store
 * and ManualClocks only: nothing is in flight outside the microtask queue, and
 * Node empties that queue before it runs an immediate. So after one immediate
 * the code is parked on the clock, on the fakes or on nothing; it moves again
 * only when the test acts. (Not a count of turns: one turn is the whole wait,
 * and it holds only because no real I/O is involved; never use it across I/O.)
 */
export function untilIdle(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
