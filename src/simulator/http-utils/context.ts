/**
 * One request being answered. Every response goes through here so the
 * request log records the status that was really sent, and so handlers can
 * learn when the client went away.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RequestLogEntry } from '../types.js';
import { type SimError, statusBody } from './status.js';

/** The request, its response and its log entry, with helpers that keep them consistent. */
export class RequestContext {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  /** The request-log entry, when this request is recorded. */
  entry?: RequestLogEntry;
  /** Set by an injected fault: cut a log stream after this many lines. */
  cutAfterLines?: number;
  private readonly abort = new AbortController();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    this.method = (req.method ?? 'GET').toUpperCase();
    this.path = url.pathname;
    this.query = Object.fromEntries(url.searchParams);
    // 'close' also fires after a normal end; only an unfinished response means the client left.
    res.on('close', () => {
      if (!res.writableEnded) this.abort.abort(new Error('client disconnected'));
    });
  }

  /** Aborted when the client disconnects before the response is complete. */
  get closed(): AbortSignal {
    return this.abort.signal;
  }

  /** Writes the status line and headers, recording the status. */
  writeHead(status: number, headers: OutgoingHttpHeaders = {}): void {
    if (this.entry) this.entry.status = status;
    this.res.writeHead(status, headers);
  }

  /** Sends a complete JSON response. */
  json(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
    const text = JSON.stringify(body);
    this.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    this.res.end(text);
  }

  /** Sends a complete plain-text response. */
  text(status: number, body: string): void {
    this.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    this.res.end(body);
  }

  /** Sends a Status error (or, if headers already went out, cuts the connection). */
  error(err: SimError): void {
    if (this.res.headersSent) {
      this.res.destroy();
      return;
    }
    this.json(err.code, statusBody(err.code, err.reason, err.message, err.details), err.headers);
  }

  /** Destroys the connection without answering (an injected dropped connection). */
  drop(): void {
    if (this.entry) this.entry.status = 0;
    this.req.socket.destroy();
  }
}
