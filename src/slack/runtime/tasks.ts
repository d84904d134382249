/**
 * Work a listener does after acking (API calls, posting answers, follow-ups)
 * runs as a tracked task: shutdown waits for it instead of dropping it, and
 * tests await `idle()` instead of sleeping.
 *
 * A task never starts in the turn that queued it: its first step waits for
 * the next check phase of the event loop, so the ack written just before is
 * flushed and the requests already waiting on sockets are read (and acked)
 * before any work behind an ack takes the CPU.
 */
import type { Logger } from '../../runtime/logger.js';

export class Tasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Queues `work` for the next turn; its errors are logged (handlers report user-facing errors themselves). */
  run(name: string, work: () => Promise<void>): Promise<void> {
    const task = (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        await work();
      } catch (err) {
        this.logger.error('background task failed', { task: name, error: err });
      }
    })();
    this.running.add(task);
    void task.finally(() => this.running.delete(task));
    return task;
  }

  /** Resolves when no task is running, including tasks started by running tasks. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  get size(): number {
    return this.running.size;
  }
}
