/**
 * Time as an injected dependency: production code asks a Clock for "now" and
 * for sleeps, so retries, expiry and simulated Vessel lifecycles are tested by
 * advancing a ManualClock instead of sleeping.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

interface Sleeper {
  until: number;
  resolve: () => void;
}

interface SleepWaiter {
  count: number;
  resolve: () => void;
}

/** A clock that only moves when told to; sleepers wake as `advance` passes their deadline. */
export class ManualClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private sleepWaiters: SleepWaiter[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      // Waking removes the abort listener, so long-lived signals do not collect one per sleep.
      const sleeper: Sleeper = {
        until: this.current + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wakeSleepWaiters();
    });
  }

  /**
   * Resolves once at least `count` sleeps wait on this clock: tests wait for
   * code to park on the clock as an event, instead of polling or counting turns.
   */
  whenSleeping(count = 1): Promise<void> {
    if (this.sleepers.length >= count) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.sleepWaiters.push({ count, resolve });
    });
  }

  private wakeSleepWaiters(): void {
    const ready = this.sleepWaiters.filter((w) => this.sleepers.length >= w.count);
    if (ready.length === 0) return;
    this.sleepWaiters = this.sleepWaiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }

  /** Number of sleeps waiting on this clock (lets tests wait until code is parked on a sleep). */
  get pendingSleeps(): number {
    return this.sleepers.length;
  }

  /**
   * Moves time forward, waking due sleepers in deadline order and letting their continuations run.
   * `settled`, when given, is awaited after each wake with time still at that sleeper's deadline: a
   * test whose sleepers start I/O (a store, a socket) waits for it there, so what the I/O answers
   * lands at that time however slow the machine, not at a later one.
   */
  async advance(ms: number, settled?: () => Promise<void>): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      const due = this.sleepers.filter((s) => s.until <= target).sort((a, b) => a.until - b.until)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.until);
      this.sleepers = this.sleepers.filter((s) => s !== due);
      due.resolve();
      await flushMicrotasks();
      if (settled) await settled();
    }
    this.current = target;
    await flushMicrotasks();
  }

  set(ms: number): void {
    this.current = ms;
  }
}

/** Lets pending promise continuations run (several turns, for chained awaits). */
export async function flushMicrotasks(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}
