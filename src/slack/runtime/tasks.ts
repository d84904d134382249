/**
 * Work a listener does after acking (API calls, posting answers, follow-ups)
 * runs as a tracked task: shutdown waits for it instead of dropping it, and
 * tests await `idle()` instead of sleeping.
 */
import type { Logger } from '../../runtime/logger.js';

export class Tasks {
  /** Each running task, with its name for the shutdown report. */
  private readonly running = new Map<Promise<void>, string>();

  constructor(private readonly logger: Logger) {}

  /** Starts `work` now; its errors are logged (handlers report user-facing errors themselves). */
  run(name: string, work: () => Promise<void>): Promise<void> {
    const task = (async () => {
      try {
        await work();
      } catch (err) {
        this.logger.error('background task failed', { task: name, error: err });
      }
    })();
    this.running.set(task, name);
    void task.finally(() => this.running.delete(task));
    return task;
  }

  /** Resolves when no task is running, including tasks started by running tasks. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.keys()]);
  }

  /** Names of the tasks still running, oldest first. */
  names(): string[] {
    return [...this.running.values()];
  }

  get size(): number {
    return this.running.size;
  }
}
