import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../../src/runtime/logger.js';
import { outsideSlot, Slots } from '../../../src/slack/runtime/slots.js';
import { Tasks } from '../../../src/slack/runtime/tasks.js';

/** A promise with its resolve handle, to hold work open until a test lets it end. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('slots for the work behind acks', () => {
  it('run at most `limit` pieces at once and hand freed slots out in arrival order', async () => {
    const slots = new Slots(2);
    const gates = [gate(), gate(), gate(), gate()];
    const begun = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const all = gates.map((g, i) =>
      slots.use(async () => {
        started.push(i);
        begun[i]?.open();
        await g.promise;
        return i;
      }),
    );
    // Work starts synchronously when a slot is free: two are running, two wait.
    expect(started).toEqual([0, 1]);
    expect(slots.load).toEqual({ active: 2, waiting: 2 });
    gates[1]?.open();
    await begun[2]?.promise;
    expect(started).toEqual([0, 1, 2]);
    expect(slots.load).toEqual({ active: 2, waiting: 1 });
    gates[0]?.open();
    gates[2]?.open();
    gates[3]?.open();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3]);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('give the slot back when the work throws', async () => {
    const slots = new Slots(1);
    await expect(slots.use(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.use(async () => 'next')).toBe('next');
  });

  it('refuse a limit that is not a positive integer', () => {
    expect(() => new Slots(0)).toThrow('limit must be a positive integer, got 0');
  });
});

describe('tasks behind an ack', () => {
  it('do not start in the turn that queued them, and idle() waits for them', async () => {
    const tasks = new Tasks(silentLogger);
    let ran = false;
    void tasks.run('work', async () => {
      ran = true;
    });
    // Everything synchronous after the ack (and its microtasks) runs before the task's first step.
    await Promise.resolve();
    expect(ran).toBe(false);
    await tasks.idle();
    expect(ran).toBe(true);
    expect(tasks.size).toBe(0);
  });
});

describe('waiting outside a slot (issue 30.10)', () => {
  it('gives the slot to queued work while waiting, and takes it back before anything queued later', async () => {
    const slots = new Slots(1);
    const rate = gate();
    const order: string[] = [];
    // The first piece waits for a Slack rate slot: minutes, in real life.
    const waiting = slots.use(async () => {
      order.push('A starts');
      await outsideSlot(() => rate.promise);
      order.push('A resumes');
    });
    const other = slots.use(async () => {
      order.push('B runs');
    });
    await other;
    // B needed no Slack call of that method: it ran while A waited, with A's slot.
    expect(order).toEqual(['A starts', 'B runs']);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
    const held = gate();
    const c = slots.use(async () => {
      order.push('C runs');
      await held.promise;
    });
    const d = slots.use(async () => {
      order.push('D runs');
    });
    rate.open();
    held.open();
    await Promise.all([waiting, c, d]);
    // A takes the slot back ahead of D, which queued behind C.
    expect(order).toEqual(['A starts', 'B runs', 'C runs', 'A resumes', 'D runs']);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('go on once the wait ends without waiting for a slot, so work holding every slot can wait for it', async () => {
    const slots = new Slots(1);
    const rate = gate();
    let resumed = false;
    // A's wait runs inside a bounded queue (the Web API client's): B holds the one slot and waits
    // for that queue, i.e. for A's call to end. Waiting for a slot there would be a deadlock.
    const a = slots.use(async () => {
      await outsideSlot(() => rate.promise);
      resumed = true;
    });
    const aCallDone = a.then(() => undefined);
    const b = slots.use(() => aCallDone);
    rate.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(resumed).toBe(true);
    await Promise.all([a, b]);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('take no slot back for work that ended while something it started waited outside the slot', async () => {
    const slots = new Slots(1);
    const rate = gate();
    const started = gate();
    let late: Promise<void> | undefined;
    // A call the work made runs on in the work's async context after the work is done (a request
    // queue the work freed runs the next caller's request in it, as the Web API client's does).
    await slots.use(async () => {
      late = new Promise<void>((resolve) => {
        setImmediate(() => {
          started.open();
          void outsideSlot(() => rate.promise).then(resolve);
        });
      });
      await started.promise;
    });
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
    rate.open();
    await late;
    // The slot is free: the next piece runs (before the fix it was taken back and never given back).
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
    expect(await slots.use(async () => 'next')).toBe('next');
  });

  it('hand on the slot a retake was given when the work ended while it waited in the queue', async () => {
    const slots = new Slots(1);
    const rate = gate();
    const blocker = gate();
    const workDone = gate();
    let late: Promise<void> | undefined;
    const first = slots.use(async () => {
      late = outsideSlot(() => rate.promise);
      // The work ends without waiting for what it started.
      await workDone.promise;
    });
    // The slot went to the blocker while the late call waits for its rate slot.
    const blocking = slots.use(() => blocker.promise);
    rate.open();
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    // The late call waits at the head of the queue for a slot; the work it belongs to ends meanwhile.
    expect(slots.load).toEqual({ active: 1, waiting: 1 });
    workDone.open();
    await first;
    blocker.open();
    await Promise.all([blocking, late]);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
    expect(await slots.use(async () => 'next')).toBe('next');
  });

  it('only waits when called outside any slot', async () => {
    expect(await outsideSlot(async () => 7)).toBe(7);
  });
});
