/**
 * The requests an injected fault holds unanswered on purpose (a latency, a
 * hang, a late landing), by the id the caller gave in `x-sim-call`. A test
 * whose client times out on the test's clock moves that clock only once every
 * call it has under way is held here: such a call ends only by its timeout,
 * while any other call is real I/O that moving the clock must not race.
 * Requests without the header are not tracked.
 */
import type { RequestContext } from './http-utils/context.js';

export const SIM_CALL_HEADER = 'x-sim-call';

export class HeldRequests {
  private readonly ids = new Set<string>();
  private waiters: { ids: readonly string[]; resolve: () => void }[] = [];

  /** Marks the request held until `release` or until its client goes away. */
  hold(ctx: RequestContext): void {
    const id = ctx.req.headers[SIM_CALL_HEADER];
    if (typeof id !== 'string' || ctx.closed.aborted) return;
    this.ids.add(id);
    ctx.closed.addEventListener('abort', () => this.ids.delete(id), { once: true });
    const ready = this.waiters.filter((w) => w.ids.every((i) => this.ids.has(i)));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }

  release(ctx: RequestContext): void {
    const id = ctx.req.headers[SIM_CALL_HEADER];
    if (typeof id === 'string') this.ids.delete(id);
  }

  /** Resolves once every one of `ids` is held (at once when they are). */
  whenHeld(ids: readonly string[]): Promise<void> {
    if (ids.every((i) => this.ids.has(i))) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ ids, resolve }));
  }
}
