/**
 * The housekeeping loop: one pass now, then one every interval, never two at
 * once. The next wait starts only when a pass has ended, and a pass asked for
 * while one runs starts after it (several such asks share that one pass), so
 * a slow pass (a slow store, a slow Slack) never overlaps the next.
 */
import type { Clock } from '../runtime/clock.js';

interface HousekeepingOptions {
  /** One pass; it reports its own failures (a rejection is passed to `onError`). */
  pass: () => Promise<void>;
  intervalMs: number;
  /** Times the waits between passes. */
  clock: Pick<Clock, 'sleep'>;
  onError: (err: unknown) => void;
}

/**
 * The system clock's sleep on a timer that does not keep the process alive
 * (housekeeping alone is no reason to stay up).
 */
export const backgroundClock: Pick<Clock, 'sleep'> = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** A loop that runs `pass` now and every `intervalMs` after the previous pass ended. */
export class Housekeeping {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: HousekeepingOptions) {}

  /** Runs the first pass, then keeps passing in the background until `stop`. */
  async start(): Promise<void> {
    await this.runNow();
    this.loop ??= this.every();
  }

  /**
   * Runs a pass that starts after this call: at once when none runs, else
   * right after the running one ends (asks made meanwhile share that pass).
   */
  runNow(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    if (!this.running) return this.begin();
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.stopping.signal.aborted ? undefined : this.begin();
    });
    return this.queued;
  }

  /** Stops the loop and waits for a pass under way (and one asked for) to end. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('housekeeping stopped'));
    await this.loop;
    await this.queued;
    await this.running;
  }

  private begin(): Promise<void> {
    const run = this.options
      .pass()
      .catch((err: unknown) => this.options.onError(err))
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  private async every(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      try {
        await this.options.clock.sleep(this.options.intervalMs, signal);
      } catch {
        return; // aborted by stop
      }
      await this.runNow();
    }
  }
}
