/**
 * The HTTP requests a server has accepted and not yet answered, so shutdown
 * can let them finish before the listener closes (a Slack request cut off
 * mid-ack would be retried by Slack against a replica that is going away).
 */
import type { Server } from 'node:http';

/** Counts open requests on the servers it tracks; `idle()` resolves when none is open. */
export class OpenRequests {
  private open = 0;
  private waiters: (() => void)[] = [];

  /** Counts every request `server` accepts from now on, until its response closes. */
  track(server: Server): void {
    server.prependListener('request', (_req, res) => {
      this.open += 1;
      res.once('close', () => {
        this.open -= 1;
        if (this.open === 0) for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  get count(): number {
    return this.open;
  }

  /** Resolves when no tracked request is open (at once when none is). */
  idle(): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
