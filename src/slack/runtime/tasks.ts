/**
 * Work a listener does after acking (API calls, posting answers, follow-ups)
 * runs as a tracked task: shutdown waits for it instead of dropping it, and
 * tests await `idle()` instead of sleeping.
 *
 * A task never starts in the turn that queued it, and tasks start one per
 * turn of the event loop: between two starts the loop reads the sockets, so
 * the acks of requests still arriving (a burst of hundreds) are written
 * before more work behind earlier acks takes the CPU; with `quiet`, a start
 * also waits until no request is waiting for its ack and arrivals have
 * settled (AckWatch).
 */
import type { Logger } from '../../runtime/logger.js';

export class Tasks {
  /** Each running task, with its name for the shutdown report. */
  private readonly running = new Map<Promise<void>, string>();
  /** Tasks queued and not started yet, oldest first. */
  private readonly starting: (() => void)[] = [];
  private pumping = false;

  /**
   * `quiet`, when given, is awaited before each start (the bot passes "no
   * ack pending", see AckWatch); follow-ups and tests start at once.
   */
  constructor(
    private readonly logger: Logger,
    private readonly quiet?: () => Promise<void>,
  ) {}

  /** Queues `work` to start on a later turn; its errors are logged (handlers report user-facing errors themselves). */
  run(name: string, work: () => Promise<void>): Promise<void> {
    const task = (async () => {
      await new Promise<void>((resolve) => {
        this.starting.push(resolve);
        this.pump();
      });
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

  /** Names of the tasks still running or queued, oldest first. */
  names(): string[] {
    return [...this.running.values()];
  }

  get size(): number {
    return this.running.size;
  }

  /** Starts the oldest queued task on the next turn, then the next one on the turn after. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => {
      void (this.quiet?.() ?? Promise.resolve()).then(() => {
        this.pumping = false;
        this.starting.shift()?.();
        if (this.starting.length > 0) this.pump();
      });
    });
  }
}
