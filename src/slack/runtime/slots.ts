/**
 * Bounded concurrency for the work behind acks: at most `limit` pieces run
 * at once, the rest wait in arrival order. A burst of requests then costs a
 * fixed amount of CPU and sockets at any moment, so it cannot starve the
 * acks of the requests still arriving (Slack gives each one 3 s).
 *
 * Work that has to wait for something else's pace (a rate slot of one Slack
 * method, which may be minutes away after a burst) gives its slot back while
 * it waits (`outsideSlot`), so work needing another method, or no Slack
 * call at all, is not held up behind it; when its wait ends it asks for a
 * slot again, ahead of the queue, and goes on without waiting for it (its
 * call is about to go out; holding it back for a work slot gains nothing).
 * The waits for Slack's pace happen in the Slack gateway's queue
 * (slack/gateway/message-queue.ts), never inside the Web API client's
 * request queue: there, 100 paced posts once held every other call back,
 * and a burst of 200 previews deadlocked the bot.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The slot a piece of work holds, as seen from inside it. `ended` once the
 * work is over: a lease can outlive its work, because what the work started
 * may run on in its async context (a queue the work's call freed runs the
 * next caller's request in it: the Web API client's request queue does), and
 * a lease taken back after its work ended would never be given back again.
 */
interface Lease {
  slots: Slots;
  held: boolean;
  ended: boolean;
  /** A slot is asked back for it (`retake`) and not given yet. */
  asking: boolean;
}

const current = new AsyncLocalStorage<Lease>();

/**
 * Runs `wait` without the work slot of the work calling it (if any): the
 * slot goes to the next piece waiting, and once `wait` ends the work asks
 * for a slot back, before anything queued, without waiting for it (see the
 * top of this file). Outside work slots it only runs `wait`.
 */
export async function outsideSlot<T>(wait: () => Promise<T>): Promise<T> {
  const lease = current.getStore();
  if (!lease?.held) return wait();
  lease.slots.release(lease);
  try {
    return await wait();
  } finally {
    lease.slots.retake(lease);
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
    const lease: Lease = { slots: this, held: true, ended: false, asking: false };
    try {
      return await current.run(lease, work);
    } finally {
      lease.ended = true;
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
    this.handOn();
  }

  /**
   * Asks for a slot again for `lease`, before anything queued (its work was
   * running already): held at once when one is free, else as soon as one is
   * given back; the work goes on meanwhile. A lease whose work has ended
   * takes none: nothing would give it back, and every such slot lost for
   * good brings the bot nearer to all slots held and nothing running.
   */
  retake(lease: Lease): void {
    if (lease.held || lease.ended || lease.asking) return;
    if (this.active < this.limit) {
      this.active += 1;
      lease.held = true;
      return;
    }
    lease.asking = true;
    this.waiting.unshift(() => {
      lease.asking = false;
      // The work ended while this waited: the slot it was handed goes on to the next.
      if (lease.ended) this.handOn();
      else lease.held = true;
    });
  }

  /** A slot given up: the next waiter gets it, or it is free. */
  private handOn(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `active` never dips and lets a newcomer jump the queue.
    if (next) next();
    else this.active -= 1;
  }
}
