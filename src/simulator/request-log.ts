/** The log of /api and /auth requests, so tests can count the calls an operation made. */
import type { RequestLogEntry } from './types.js';

/** Recorded requests, oldest first. */
export class RequestLog {
  /** Live array; cleared in place so holders of the reference see the change. */
  readonly entries: RequestLogEntry[] = [];

  /** Records a request as it arrives (status 0 until its response head is written). */
  start(at: number, method: string, path: string, query: Record<string, string>): RequestLogEntry {
    const entry: RequestLogEntry = { at, method, path, query, status: 0 };
    this.entries.push(entry);
    return entry;
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
