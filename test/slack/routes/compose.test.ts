import { describe, expect, it } from '@jest/globals';
import { compose, type Filter } from '../../../src/slack/routes/compose.js';
import { always, before, inSlot, type Job, run } from '../../../src/slack/routes/work.js';

describe('compose', () => {
  it('runs filters in order, each around the rest', async () => {
    const seen: string[] = [];
    const around =
      (name: string): Filter<string[]> =>
      async (log, next) => {
        log.push(`${name} in`);
        await next();
        log.push(`${name} out`);
      };
    await compose([around('a'), around('b')])(seen);
    expect(seen).toEqual(['a in', 'b in', 'b out', 'a out']);
  });

  it('stops where a filter does not call next (a shed request never reaches its route)', async () => {
    const seen: string[] = [];
    await compose<string[]>([async (log) => void log.push('shed'), async (log) => void log.push('route')])(
      seen,
    );
    expect(seen).toEqual(['shed']);
  });

  it('refuses a second call of next: the rest of the chain would run twice', async () => {
    const twice: Filter<unknown> = async (_c, next) => {
      await next();
      await next();
    };
    await expect(compose([twice, async () => {}])({})).rejects.toThrow('next() called twice');
  });
});

describe('the work filters', () => {
  const job = (slotLog: string[]): Job => ({
    name: 'click x',
    outcome: 'ok',
    slot: async (work) => {
      slotLog.push('slot');
      await work();
    },
  });

  it('runs what cannot wait before the slot, the rest in it, and counts what run returns', async () => {
    const log: string[] = [];
    const j = job(log);
    await compose([
      always(async () => void log.push('finally')),
      before(async () => void log.push('now')),
      inSlot,
      run(async () => {
        log.push('work');
        return 'vessel';
      }),
    ])(j);
    expect(log).toEqual(['now', 'slot', 'work', 'finally']);
    expect(j.outcome).toBe('vessel');
  });

  it('keeps `ok` when the work returns nothing, and runs `always` when it throws', async () => {
    const log: string[] = [];
    const j = job(log);
    await compose([inSlot, run(async () => {})])(j);
    expect(j.outcome).toBe('ok');
    await expect(
      compose([always(async () => void log.push('finally')), run(() => Promise.reject(new Error('boom')))])(
        j,
      ),
    ).rejects.toThrow('boom');
    expect(log).toEqual(['slot', 'finally']);
  });
});
