/**
 * Counts the Slack requests on their way in and not yet answered, so the work
 * behind earlier acks can wait until the acks are done: in a burst, every
 * request is acked before any of the burst's work takes the CPU.
 *
 * "Done" is more than "none pending right now": a burst's requests arrive
 * spread over a hundred milliseconds or more, with gaps between them, and
 * work started in such a gap keeps running (store reads, Slack calls) while
 * the rest of the burst arrives. So the watch also waits for arrivals to
 * settle: none pending and none arrived for `settleMs`. A bounded wait keeps
 * steady traffic from starving that work.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Clock, systemClock } from '../../runtime/clock.js';

/**
 * The reason a cap's sleep is cancelled with: given, so no DOMException (and
 * its stack) is made for each of the many waits a burst ends.
 */
const SETTLED = new Error('the requests settled first');

/** Connections opened whose first request has not arrived yet. */
const opening = new WeakSet<Socket>();

/**
 * How long after the last arrival the requests count as settled: longer than
 * the gaps inside a burst, short next to the hosting API's answers the work
 * waits for anyway. 15 ms was too short: a burst of 200 clicks, each on its
 * own connection, has gaps past it (the sender's own pauses), and the chains
 * and work that started in them took the CPU from the rest of the burst's
 * acks (bench/slack-ack.ts clicks over HTTP, 3 rounds: p99 0.90x bare Bolt
 * with 15 ms, 0.73x with 50 ms). A lone request's work starts 50 ms after
 * its ack, unnoticed next to the reads and posts it then makes.
 */
const DEFAULT_SETTLE_MS = 50;

export class AckWatch {
  private pending = 0;
  private lastArrival = Number.NEGATIVE_INFINITY;
  private readonly waiters = new Set<() => void>();
  /** A settle check is scheduled (one at a time). */
  private settling = false;

  constructor(
    private readonly settleMs = DEFAULT_SETTLE_MS,
    private readonly clock: Clock = systemClock,
  ) {}

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

  /**
   * Counts a Socket Mode envelope until `done` is called (its ack sent, or
   * its handling over); calling `done` again does nothing.
   */
  envelope(): () => void {
    this.add();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.remove();
    };
  }

  /** Requests waiting for their answer now. */
  get waiting(): number {
    return this.pending;
  }

  /** Resolves once no request waits for its answer and none arrived for a while, or after `maxMs` at most. */
  quiet(maxMs: number): Promise<void> {
    if (this.settled()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const cap = new AbortController();
      const done = () => {
        this.waiters.delete(done);
        cap.abort(SETTLED);
        resolve();
      };
      this.waiters.add(done);
      // The cap's sleep is cancelled when the requests settle first; its rejection then means nothing.
      this.clock.sleep(maxMs, cap.signal).then(done, () => undefined);
      this.settle();
    });
  }

  private add(): void {
    this.pending += 1;
    this.lastArrival = this.clock.now();
  }

  private remove(): void {
    this.pending -= 1;
    if (this.pending === 0) this.settle();
  }

  private settled(): boolean {
    return this.pending === 0 && this.clock.now() - this.lastArrival >= this.settleMs;
  }

  /** Wakes the waiters once settled; checks again when the settle time since the last arrival has passed. */
  private settle(): void {
    if (this.settling || this.waiters.size === 0 || this.pending > 0) return;
    if (this.settled()) {
      for (const wake of [...this.waiters]) wake();
      return;
    }
    this.settling = true;
    // A request arriving meanwhile moves lastArrival on; the check after this sleep sees it.
    void this.clock.sleep(this.lastArrival + this.settleMs - this.clock.now()).then(() => {
      this.settling = false;
      this.settle();
    });
  }
}
