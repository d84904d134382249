/**
 * Bounded concurrency for the work behind acks: at most `limit` pieces run
 * at once, the rest wait in arrival order. A burst of requests then costs a
 * fixed amount of CPU and sockets at any moment, so it cannot starve the
 * acks of the requests still arriving (Slack gives each one 3 s).
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Slots: limit must be a positive integer, got ${limit}`);
  }

  /** Runs `work` once a slot is free; the slot is given back however `work` ends. */
  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` never dips and lets a newcomer jump the queue.
      if (next) next();
      else this.active -= 1;
    }
  }

  /** Pieces running now and waiting for a slot. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
