/**
 * Acks first, the one way both receivers do it: the ack is decided from the
 * request's body alone (listeners/ack-first.ts: shed past the backlog, a
 * submission's field errors checked without any API call), sent, and only
 * then does Bolt's chain run (authorization, middleware, listeners), with an
 * ack that sends nothing. In Socket Mode this is what keeps a burst's acks
 * ahead of its chains: without it every envelope waits for its own chain
 * (and, on one event loop, the chains of those before it) before its ack.
 */

/** One request's ack, decided before Bolt's chain. */
export interface FirstAck {
  /** The ack's body (undefined: a bare ack). */
  readonly body: object | undefined;
  /** Handed to Bolt as the request's custom properties (its listeners find them in `context`). */
  readonly properties: Record<string, unknown>;
  /** The ack was sent (timed from the decision). */
  sent(): void;
  /** A listener acked again: the same answer is nothing; a different one is a bug, logged and counted. */
  again(body: unknown): void;
  /** Bolt's chain is over (or never ran): gives back what no listener took over. */
  done(): void;
}

/** Decides a request's ack from its parsed body; undefined leaves the ack to the listener (type-ahead). */
export type AckFirst = (body: Record<string, unknown>) => FirstAck | undefined;

/**
 * Sends `first`'s ack, then runs the chain with an ack that sends nothing.
 * An ack that cannot be sent stops the request there (Slack sends it again),
 * as a listener's failed ack would.
 */
export async function ackThenChain(
  first: FirstAck,
  send: (body: object | undefined) => Promise<void>,
  chain: (ack: (body?: unknown) => Promise<void>, properties: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  try {
    await send(first.body);
    first.sent();
  } catch (error) {
    first.done();
    throw error;
  }
  try {
    await chain(async (body) => first.again(body), first.properties);
  } finally {
    first.done();
  }
}

/**
 * Starts Bolt's chains one per turn of the event loop, in the order their
 * acks went out (both receivers). A burst arrives as Socket Mode frames read
 * chunk by chunk, or as HTTP requests on their own connections; a chain
 * started as soon as its ack is written would run (authorization,
 * middleware, matching every listener) before the loop reads the next chunk
 * or request, so each later ack would wait for the chains of those before it.
 * Started from `setImmediate`, a chain waits until the loop has read what
 * the sockets hold, and those requests' acks go out first. With `quiet` (the
 * bot passes "no ack pending and arrivals settled", AckWatch, bounded) each
 * start also waits for the burst to be acked: the acks of requests still on
 * their way, spread over a hundred milliseconds or more, never share the CPU
 * with the chains of those before them, as the work behind the acks never
 * does (runtime/tasks.ts).
 */
export class ChainsAfterReads {
  private readonly queued: (() => void)[] = [];
  private pumping = false;
  /** Chains queued or running, so `idle` can wait for them (tests, shutdown). */
  private readonly open = new Set<Promise<unknown>>();

  constructor(private readonly quiet?: () => Promise<void>) {}

  /** Queues `chain` to start on a later turn, after those queued before it; resolves with its outcome. */
  run<T>(chain: () => Promise<T>): Promise<T> {
    const run = new Promise<T>((resolve, reject) => {
      this.queued.push(() => chain().then(resolve, reject));
      this.pump();
    });
    const tracked = run.catch(() => undefined);
    this.open.add(tracked);
    void tracked.finally(() => this.open.delete(tracked));
    return run;
  }

  /** Resolves when no chain is queued or running, including chains queued meanwhile. */
  async idle(): Promise<void> {
    while (this.open.size > 0) await Promise.all([...this.open]);
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => {
      void (this.quiet?.() ?? Promise.resolve()).then(() => {
        this.pumping = false;
        this.queued.shift()?.();
        if (this.queued.length > 0) this.pump();
      });
    });
  }
}
