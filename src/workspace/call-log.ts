/**
 * Every request the stand-in answered, in order, and a way to wait for one.
 * The bot acks first and calls Slack afterwards, so tests cannot assert right
 * after their request returns; `waitFor` wakes on each new record instead of
 * polling or sleeping.
 */
import type { Args } from './http-body.js';

/** The pseudo-method under which POSTs to response URLs are recorded. */
export const RESPONSE_URL_METHOD = 'response_url';

export interface RecordedCall {
  /** Web API method (e.g. `chat.update`), or `response_url`. */
  method: string;
  /** Arguments as sent, with `blocks`/`view`/`attachments`/`metadata` parsed from JSON strings. */
  body: Args;
  /** The token the call carried (header or `token` field); not repeated in `body`. */
  token?: string;
  /** Stand-in clock time when the call was answered. */
  at: number;
  /** HTTP status the stand-in answered with (200, 404 or 429 ...). */
  status: number;
  /** The JSON body the stand-in answered with. */
  response: Record<string, unknown>;
  /** For `response_url` records: the id in `/response/<id>`. */
  responseId?: string;
}

export interface WaitOptions {
  /** Give up after this long (real time; a safety net, not a test timing). Default 2000. */
  timeoutMs?: number;
  /** Only consider calls at or after this index of `calls` (e.g. `standIn.calls.length` taken earlier). */
  after?: number;
}

interface Waiter {
  predicate: (call: RecordedCall) => boolean;
  resolve: (call: RecordedCall) => void;
  reject: (error: Error) => void;
}

/** The ordered record of calls plus waiters woken as calls arrive. */
export class CallLog {
  readonly calls: RecordedCall[] = [];
  private waiters = new Set<Waiter>();

  /** Appends a call and wakes every waiter it satisfies. */
  record(call: RecordedCall): void {
    this.calls.push(call);
    for (const waiter of [...this.waiters]) {
      if (!waiter.predicate(call)) continue;
      this.waiters.delete(waiter);
      waiter.resolve(call);
    }
  }

  /** Calls to one method, oldest first. */
  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Forgets every recorded call (waiters stay). */
  clear(): void {
    this.calls.length = 0;
  }

  /** The first recorded call (from `after`) matching `predicate`, waiting for one if none yet. */
  waitFor(predicate: (call: RecordedCall) => boolean, options: WaitOptions = {}): Promise<RecordedCall> {
    const existing = this.calls.slice(options.after ?? 0).find(predicate);
    if (existing) return Promise.resolve(existing);
    const timeoutMs = options.timeoutMs ?? 2000;
    return new Promise<RecordedCall>((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (call) => {
          clearTimeout(timer);
          resolve(call);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        waiter.reject(new Error(`No matching Slack call within ${timeoutMs} ms. ${this.describeRecent()}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Rejects every pending wait (on stop, so no timer outlives the stand-in). */
  rejectWaiters(reason: string): void {
    for (const waiter of this.waiters) waiter.reject(new Error(`${reason}. ${this.describeRecent()}`));
    this.waiters.clear();
  }

  private describeRecent(count = 12): string {
    if (this.calls.length === 0) return 'No calls were recorded.';
    const recent = this.calls.slice(-count);
    const lines = recent.map((c) => `  ${c.method} -> ${c.status} ${summarize(c)}`);
    return `Last ${recent.length} of ${this.calls.length} calls:\n${lines.join('\n')}`;
  }
}

// One line per call: the answer's error (if any) and the arguments, cut short.
function summarize(call: RecordedCall): string {
  const error = call.response.ok === false ? ` error=${String(call.response.error)}` : '';
  const args = JSON.stringify(call.body);
  return `${error} ${args.length > 200 ? `${args.slice(0, 199)}…` : args}`.trim();
}
