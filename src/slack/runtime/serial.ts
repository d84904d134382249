/**
 * Runs work for a key one at a time, folding requests that pile up: while a
 * refresh of a release message runs, any number of further requests for it
 * share one refresh that starts afterwards and reads the newest state. So the
 * message never goes back to an older state, and a burst costs two updates.
 */
export class SerialByKey {
  private readonly running = new Map<string, Promise<void>>();
  private readonly waiting = new Map<string, Promise<void>>();

  /** Runs `work` for `key` after the current run (if any); joins a run that has not started yet. */
  run(key: string, work: () => Promise<void>): Promise<void> {
    const waiting = this.waiting.get(key);
    if (waiting) return waiting;
    const before = this.running.get(key) ?? Promise.resolve();
    const next = before.then(() => {
      this.waiting.delete(key);
      return work();
    });
    this.waiting.set(key, next);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(key, settled);
    void settled.then(() => {
      if (this.running.get(key) === settled) this.running.delete(key);
    });
    return next;
  }
}
