import { describe, expect, it } from '@jest/globals';
import { Events } from '../../src/runtime/events.js';
import type { Logger } from '../../src/runtime/logger.js';

function recordingLogger(lines: string[]): Logger {
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (msg, fields) => lines.push(`${msg}: ${(fields?.error as Error | undefined)?.message}`),
    error: () => {},
    child: () => logger,
  };
  return logger;
}

describe('Events', () => {
  it('tells every listener in turn and resolves once all are done', async () => {
    const events = new Events<{ id: string }>();
    const seen: string[] = [];
    let release: () => void = () => {};
    events.on(async ({ id }) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      seen.push(`slow ${id}`);
    });
    events.on(({ id }) => {
      seen.push(`fast ${id}`);
    });
    let done = false;
    const emitted = events.emit({ id: 'a' }).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    expect(seen).toEqual([]);
    release();
    await emitted;
    expect(seen).toEqual(['slow a', 'fast a']);
  });

  it('a failing listener is logged and neither fails the emitter nor stops the others', async () => {
    const lines: string[] = [];
    const events = new Events<number>(recordingLogger(lines));
    const seen: number[] = [];
    events.on(() => {
      throw new Error('redraw failed');
    });
    events.on((n) => {
      seen.push(n);
    });
    await expect(events.emit(7)).resolves.toBeUndefined();
    expect(seen).toEqual([7]);
    expect(lines).toEqual(['an event listener failed: redraw failed']);
  });

  it('a removed listener hears nothing more; emitting with none is fine', async () => {
    const events = new Events<number>();
    const seen: number[] = [];
    const off = events.on((n) => {
      seen.push(n);
    });
    await events.emit(1);
    off();
    await events.emit(2);
    expect(seen).toEqual([1]);
  });

  it('post calls every listener before it returns, waits for none, and settled resolves once all ended', async () => {
    const lines: string[] = [];
    const events = new Events<string>(recordingLogger(lines));
    const started: string[] = [];
    const ended: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    events.on(async (e) => {
      started.push(`slow ${e}`);
      await held;
      ended.push(`slow ${e}`);
    });
    events.on((e) => {
      started.push(`failing ${e}`);
      throw new Error('redraw failed');
    });
    events.on((e) => {
      started.push(`fast ${e}`);
      ended.push(`fast ${e}`);
    });
    events.post('a');
    events.post('b');
    // Every listener ran up to its first wait, in the order events were posted, though the first is held.
    expect(started).toEqual(['slow a', 'failing a', 'fast a', 'slow b', 'failing b', 'fast b']);
    let settled = false;
    const all = events.settled().then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    release();
    await all;
    expect(ended).toEqual(['fast a', 'fast b', 'slow a', 'slow b']);
    expect(lines).toEqual([
      'an event listener failed: redraw failed',
      'an event listener failed: redraw failed',
    ]);
    // Nothing posted: settled at once.
    await expect(events.settled()).resolves.toBeUndefined();
  });
});
