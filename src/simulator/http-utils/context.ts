/**
 * One request being answered. Every response goes through here so the
 * request log records the status that was really sent, and so handlers can
 * learn when the client went away.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AfterWriteFault, RequestLogEntry } from '../types.js';
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
  /** Set by an injected fault: a successful answer is replaced by this broken one (the work is done). */
  answerFault?: AfterWriteFault;
  /** Called when an injected fault leaves this request unanswered until the client gives up. */
  onHold?: () => void;
  private readonly abort = new AbortController();
  /** The client is gone (a late-landing write): the handler runs, its answer goes nowhere. */
  private discard = false;

  constructor(
    public req: IncomingMessage,
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

  /** Reads the whole body now and serves it to the handler from memory (it may run after the client left). */
  async holdBody(): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.req) chunks.push(chunk as Buffer);
    const copy = Readable.from(chunks.length > 0 ? [Buffer.concat(chunks)] : []);
    const { headers, method, url, socket } = this.req;
    this.req = Object.assign(copy, { headers, method, url, socket }) as unknown as IncomingMessage;
  }

  /** From now on nothing is written: the client has gone. */
  discardAnswers(): void {
    this.discard = true;
  }

  /** Sends a complete JSON response. */
  json(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
    if (this.discard) return;
    if (this.answerFault && status >= 200 && status < 300) {
      this.brokenAnswer(status, this.answerFault);
      return;
    }
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
    if (this.discard) return;
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

  /** The injected answer that replaces a successful one. */
  private brokenAnswer(status: number, fault: AfterWriteFault): void {
    const fault2xx = (body: string) => {
      this.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      this.res.end(body);
    };
    this.answerFault = undefined;
    switch (fault) {
      case 'bad-json':
        fault2xx('{"kind": "Status", "metadata": {');
        return;
      case 'empty':
        fault2xx('');
        return;
      case 'wrong-shape':
        fault2xx(JSON.stringify({ items: 'not a list', metadata: 7 }));
        return;
      case 'conflict-plain':
        this.text(409, 'Conflict');
        return;
      case 'error-500':
        this.json(500, statusBody(500, 'InternalError', 'injected fault after the write'));
        return;
      case 'reset':
        this.drop();
        return;
      case 'hang':
        // No answer ever: the client's timeout ends the exchange.
        if (this.entry) this.entry.status = 0;
        this.onHold?.();
        return;
      case 'land-late':
        return;
    }
  }

  /** Destroys the connection without answering (an injected dropped connection). */
  drop(): void {
    if (this.entry) this.entry.status = 0;
    this.req.socket.destroy();
  }
}
