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
});
