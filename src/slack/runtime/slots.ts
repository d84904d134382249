/**
 * Bounded concurrency for the work behind acks: at most `limit` pieces run
 * at once, the rest wait in arrival order. A burst of requests then costs a
 * fixed amount of CPU and sockets at any moment, so it cannot starve the
 * acks of the requests still arriving (Slack gives each one 3 s).
 *
 * Work that has to wait for something else's pace (a rate slot of one Slack
 * method, which may be minutes away after a burst) gives its slot back while
 * it waits (`outsideSlot`), so work needing another method, or no Slack
 * call at all, is not held up behind it; it takes a slot again, ahead of
 * the queue, when its wait ends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The slot a piece of work holds, as seen from inside it. */
interface Lease {
  slots: Slots;
  held: boolean;
}

const current = new AsyncLocalStorage<Lease>();

/**
 * Runs `wait` without the work slot of the work calling it (if any): the
 * slot goes to the next piece waiting, and is taken back, before anything
 * queued, once `wait` ends. Outside work slots it only runs `wait`.
 */
export async function outsideSlot<T>(wait: () => Promise<T>): Promise<T> {
  const lease = current.getStore();
  if (!lease?.held) return wait();
  lease.slots.release(lease);
  try {
    return await wait();
  } finally {
    await lease.slots.retake(lease);
  }
}

export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Slots: limit must be a positive integer, got ${limit}`);
  }

  /** Runs `work` once a slot is free; the slot is given back however `work` ends. */
  async use<T>(work: () => Promise<T>): Promise<T> {
    // A free slot starts the work at once (synchronously), as callers rely on.
    if (this.active < this.limit) this.active += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    const lease: Lease = { slots: this, held: true };
    try {
      return await current.run(lease, work);
    } finally {
      this.release(lease);
    }
  }

  /** Pieces running now and waiting for a slot. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** Gives `lease`'s slot back (once); the next waiter gets it. */
  release(lease: Lease): void {
    if (!lease.held) return;
    lease.held = false;
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `active` never dips and lets a newcomer jump the queue.
    if (next) next();
    else this.active -= 1;
  }

  /** Takes a slot again for `lease`, before anything queued (its work was running already). */
  async retake(lease: Lease): Promise<void> {
    if (lease.held) return;
    if (this.active < this.limit) this.active += 1;
    else await new Promise<void>((resolve) => this.waiting.unshift(resolve));
    lease.held = true;
  }
}
