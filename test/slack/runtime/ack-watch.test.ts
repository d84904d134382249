/**
 * The watch that holds work behind acks until a burst's requests are all
 * answered and have stopped arriving, on a ManualClock: a gap shorter than
 * the settle time inside a burst must not let work start.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { AckWatch } from '../../../src/slack/runtime/ack-watch.js';

/** A connection and its one request, as the HTTP server hands them to the watch. */
function arrive(watch: AckWatch): { answer(): void } {
  const socket = new EventEmitter() as unknown as Socket;
  const res = new EventEmitter() as unknown as ServerResponse;
  watch.connection(socket);
  watch.request({ socket } as IncomingMessage, res);
  return {
    answer: () => {
      res.emit('close');
      (socket as unknown as EventEmitter).emit('close');
    },
  };
}

/** Whether `p` has settled, after the microtasks already queued have run. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

describe('AckWatch', () => {
  it('is quiet at once when nothing has arrived', async () => {
    const watch = new AckWatch(15, new ManualClock());
    expect(await settled(watch.quiet(250))).toBe(true);
  });

  it('waits for every pending ack, then for the settle time after the last arrival', async () => {
    const clock = new ManualClock();
    const watch = new AckWatch(15, clock);
    const first = arrive(watch);
    const quiet = watch.quiet(250);
    await clock.advance(5);
    const second = arrive(watch);
    first.answer();
    expect(await settled(quiet)).toBe(false);
    second.answer();
    // Answered, but the last request arrived only now: a burst may still be coming in.
    expect(await settled(quiet)).toBe(false);
    await clock.advance(14);
    expect(await settled(quiet)).toBe(false);
    await clock.advance(1);
    expect(await settled(quiet)).toBe(true);
  });

  it('a request arriving inside the settle time holds the work back again', async () => {
    const clock = new ManualClock();
    const watch = new AckWatch(15, clock);
    arrive(watch).answer();
    const quiet = watch.quiet(250);
    await clock.advance(10);
    const late = arrive(watch);
    late.answer();
    await clock.advance(10);
    // 20 ms after the first arrival, but only 10 after the late one.
    expect(await settled(quiet)).toBe(false);
    await clock.advance(5);
    expect(await settled(quiet)).toBe(true);
  });

  it('lets the work go after the cap when requests never stop coming', async () => {
    const clock = new ManualClock();
    const watch = new AckWatch(15, clock);
    arrive(watch);
    const quiet = watch.quiet(250);
    await clock.advance(249);
    expect(await settled(quiet)).toBe(false);
    await clock.advance(1);
    expect(await settled(quiet)).toBe(true);
    expect(watch.waiting).toBe(1);
  });

  it('counts a kept-alive connection’s next request, and a connection dropped before its request', async () => {
    const clock = new ManualClock();
    const watch = new AckWatch(15, clock);
    const socket = new EventEmitter() as unknown as Socket;
    watch.connection(socket);
    expect(watch.waiting).toBe(1);
    (socket as unknown as EventEmitter).emit('close');
    expect(watch.waiting).toBe(0);
    const kept = new EventEmitter() as unknown as Socket;
    watch.connection(kept);
    const r1 = new EventEmitter() as unknown as ServerResponse;
    watch.request({ socket: kept } as IncomingMessage, r1);
    (r1 as unknown as EventEmitter).emit('close');
    const r2 = new EventEmitter() as unknown as ServerResponse;
    watch.request({ socket: kept } as IncomingMessage, r2);
    expect(watch.waiting).toBe(1);
    (r2 as unknown as EventEmitter).emit('close');
    expect(watch.waiting).toBe(0);
  });
});
