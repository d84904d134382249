/**
 * Counts the Slack requests on their way in and not yet answered, so the work
 * behind earlier acks can wait until no ack is pending: in a burst, every
 * request is acked before any of the burst's work takes the CPU. A bounded
 * wait keeps steady traffic from starving that work.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Connections opened whose first request has not arrived yet. */
const opening = new WeakSet<Socket>();

export class AckWatch {
  private pending = 0;
  private waiters: (() => void)[] = [];

  /**
   * Counts a new connection from its opening: its request is on the way
   * (parsing it takes turns of the loop the work must not take).
   */
  connection(socket: Socket): void {
    this.add();
    opening.add(socket);
    socket.once('close', () => {
      if (opening.delete(socket)) this.remove();
    });
  }

  /** Counts one request until its response is written (or its connection dropped). */
  request(req: IncomingMessage, res: ServerResponse): void {
    // A new connection's first request was counted when it opened; a kept-alive one's is counted now.
    if (!opening.delete(req.socket)) this.add();
    res.once('close', () => this.remove());
  }

  private add(): void {
    this.pending += 1;
  }

  private remove(): void {
    this.pending -= 1;
    if (this.pending > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Requests waiting for their answer now. */
  get waiting(): number {
    return this.pending;
  }

  /** Resolves once no request waits for its answer, or after `maxMs` at most. */
  quiet(maxMs: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, maxMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }
}
