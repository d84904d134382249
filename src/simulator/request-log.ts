/** The log of /api and /auth requests, so tests can count the calls an operation made. */
import type { RequestLogEntry } from './types.js';

/** Recorded requests, oldest first. */
export class RequestLog {
  /** Live array; cleared in place so holders of the reference see the change. */
  readonly entries: RequestLogEntry[] = [];
  /** Tests waiting for a number of matching requests to have arrived. */
  private waiters: { method: string; pathPrefix: string; count: number; resolve: () => void }[] = [];

  /** Records a request as it arrives (status 0 until its response head is written). */
  start(at: number, method: string, path: string, query: Record<string, string>): RequestLogEntry {
    const entry: RequestLogEntry = { at, method, path, query, status: 0 };
    this.entries.push(entry);
    const ready = this.waiters.filter((w) => this.count(w.method, w.pathPrefix) >= w.count);
    if (ready.length > 0) {
      this.waiters = this.waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve();
    }
    return entry;
  }

  /** Resolves once at least `count` requests match (as `count` counts them): tests wait on arrival, not by polling. */
  whenCount(method: string, pathPrefix: string, count: number): Promise<void> {
    if (this.count(method, pathPrefix) >= count) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ method, pathPrefix, count, resolve }));
  }

  /** Requests with this method ('*' for any) whose path starts with `pathPrefix`. */
  count(method: string, pathPrefix: string): number {
    const m = method.toUpperCase();
    return this.entries.filter((e) => (m === '*' || e.method === m) && e.path.startsWith(pathPrefix)).length;
  }

  clear(): void {
    this.entries.length = 0;
  }
}
