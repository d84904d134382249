/**
 * How much work the bot has taken on behind acks. Each accepted request's
 * job holds what it needs of the payload until it finishes, so without a
 * bound a flood (thousands of commands while the hosting API is slow) queues
 * jobs until the heap runs out. Past the bound a request is refused at
 * once ("busy") instead: the refusal costs nothing to keep, so memory stays
 * flat however long the flood lasts.
 */
export class Backlog {
  private taken = 0;

  /** `limit`: jobs accepted and not yet finished (running and waiting together). */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Backlog: limit must be a positive integer, got ${limit}`);
  }

  /** Takes one place, or returns undefined when the backlog is full; the returned function gives it back (once). */
  take(): (() => void) | undefined {
    if (this.taken >= this.limit) return undefined;
    this.taken += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.taken -= 1;
    };
  }

  /** Jobs accepted and not finished. */
  get size(): number {
    return this.taken;
  }
}
