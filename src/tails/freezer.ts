/**
 * The parts a tail leaves behind when it rolls over: each must be rewritten
 * once more, without its Stop button and saying "continued below". That runs
 * beside the refreshes, as a budget consumer of its own (so it may wait for a
 * slot while a refresh does), on the tail's own share: a freeze spends one of
 * the tail's turns, so tails that roll over do not edit more than the others.
 */
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { ShownLine } from './progress.js';
import { retryDelay, tryAFewTimes } from './retry.js';

/** A part left behind by a rollover. */
export interface Freeze {
  ts: string;
  /** 0-based number of the part. */
  part: number;
  lines: ShownLine[];
}

interface FreezerOptions {
  /** Rewrites one part (through the budget, as `consumer`). */
  write(freeze: Freeze, signal: AbortSignal, consumer: string): Promise<void>;
  /** The budget consumer of the background freezes (the tail's own is used at the end). */
  consumer: string;
  clock: Clock;
  log: Logger;
  /** Jitter for the retry waits (default Math.random). */
  random?: () => number;
}

/** Queues and freezes left-behind parts. */
export class PartFreezer {
  private readonly queue: Freeze[] = [];
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly o: FreezerOptions) {}

  /** Queues a part and makes sure the background loop runs until the queue is empty or `signal` aborts. */
  add(freeze: Freeze, signal: AbortSignal): void {
    this.queue.push(freeze);
    if (this.running) return;
    this.running = true;
    this.loop = this.background(signal);
  }

  /** Resolves once the background loop has stopped. */
  idle(): Promise<void> {
    return this.loop;
  }

  /** Freezes what is left, a few tries each, as `consumer`; a part that never works keeps its dead button. */
  async finish(signal: AbortSignal, consumer: string): Promise<void> {
    while (this.queue.length > 0 && !signal.aborted) {
      const freeze = this.queue[0] as Freeze;
      await tryAFewTimes(() => this.o.write(freeze, signal, consumer), {
        signal,
        clock: this.o.clock,
        log: this.o.log,
        what: 'freezing a part of a tail',
        ...(this.o.random ? { random: this.o.random } : {}),
      });
      this.queue.shift();
    }
  }

  private async background(signal: AbortSignal): Promise<void> {
    let failures = 0;
    // The check and the flag reset share one synchronous step, so a part queued meanwhile is never stranded.
    while (this.queue.length > 0 && !signal.aborted) {
      try {
        await this.o.write(this.queue[0] as Freeze, signal, this.o.consumer);
        this.queue.shift();
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        failures += 1;
        this.o.log.warn('could not freeze a part of a tail; trying again', { error, failures });
        await this.o.clock.sleep(retryDelay(failures, this.o.random), signal).catch(() => undefined);
      }
    }
    this.running = false;
  }
}
