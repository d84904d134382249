/**
 * SerialByKey: refreshes of one release run one at a time and a burst folds
 * into one more run; other keys are not held up. Driven by hand-resolved
 * promises, no timers.
 */
import { describe, expect, it } from '@jest/globals';
import { SerialByKey } from '../../../src/slack/runtime/serial.js';

/** A piece of work the test finishes by hand, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    work: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
    },
    open: () => open(),
  };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SerialByKey', () => {
  it('runs one at a time per key and folds requests made while one runs into one more run, and joins one not started', async () => {
    const serial = new SerialByKey();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const c = gate(log, 'c');
    const first = serial.run('rel-1', a.work);
    // Not started yet: a request now joins it (it will read the newest state anyway).
    expect(serial.run('rel-1', c.work)).toBe(first);
    await flush();
    expect(log).toEqual(['start a']);
    const second = serial.run('rel-1', b.work);
    expect(serial.run('rel-1', c.work)).toBe(second);
    a.open();
    await first;
    await flush();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    b.open();
    await second;
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('other keys run meanwhile, and a failed run does not block the next', async () => {
    const serial = new SerialByKey();
    const log: string[] = [];
    const slow = gate(log, 'slow');
    const running = serial.run('rel-1', slow.work);
    await serial.run('rel-2', async () => {
      log.push('other');
    });
    expect(log).toEqual(['start slow', 'other']);
    slow.open();
    await running;

    await expect(
      serial.run('rel-1', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await serial.run('rel-1', async () => {
      log.push('after failure');
    });
    expect(log.at(-1)).toBe('after failure');
  });
});
