/**
 * A change's follow-up is owned by one replica at a time (its lease), is
 * marked due from the apply until it ran to its end, and is resumed by
 * housekeeping when its replica stopped mid-way: not before the click's own
 * follow-up had time to take it, and never once it is over.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { followLeaseKey } from '../../src/changes/apply-lease.js';
import {
  applied,
  click,
  collectFollow,
  type Harness,
  LOBBY_9,
  origin,
  startHarness,
  storeKinds,
} from './harness.js';

describe.each(storeKinds)('follow-ups owned, marked and resumed (%s store)', (kind) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ store: kind });
  });
  afterEach(async () => {
    await h.close();
  });

  const followState = async (id: string) => (await h.store.getChange(id))?.followState;

  it('one replica follows at a time; a stop leaves it due and resumable; a finished one is over', async () => {
    const change = await h.engine.request({
      operation: 'vessel.create',
      input: LOBBY_9,
      requester: 'U1',
      origin,
    });
    const done = applied(await h.engine.confirm(click(change.id)));
    expect(await followState(done.id)).toBe('due');

    // Replica a follows; replica b, asked at the same time, gets nothing to do.
    const stop = new AbortController();
    const a = h.engine.follow(done, stop.signal)[Symbol.asyncIterator]();
    const first = a.next();
    await h.clock.whenSleeping(1); // a's lease heartbeat: a holds the follow-up
    expect(await h.replica('replica-b').follow(done)[Symbol.asyncIterator]().next()).toEqual({
      done: true,
      value: undefined,
    });

    // Replica a stops (a deploy): the follow-up is still due and its lease is free at once.
    stop.abort();
    for (let step = await first; !step.done; step = await a.next()) {
      // drain what a had under way
    }
    expect(await followState(done.id)).toBe('due');
    expect(await h.store.getLease(followLeaseKey(done.id))).toBeUndefined();

    // Housekeeping resumes it, but only once the click's own follow-up had time to take it.
    expect(await h.engine.resumeFollowUps()).toEqual([]);
    await h.clock.advance(30_000);
    expect((await h.replica('replica-b').resumeFollowUps()).map((c) => c.id)).toEqual([done.id]);

    // Followed to its end: over, and never resumed again.
    const events = await collectFollow(h.clock, h.replica('replica-b').follow(done));
    expect(events.at(-1)).toMatchObject({ kind: 'done' });
    expect(await followState(done.id)).toBe('over');
    expect(await h.engine.resumeFollowUps()).toEqual([]);
  });

  it('an operation without a follow-up is never marked due', async () => {
    const change = await h.engine.request({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
      requester: 'U1',
      origin,
    });
    const out = await h.engine.confirm(click(change.id));
    expect(out.kind).toBe('applied');
    expect(await followState(change.id)).toBeUndefined();
  });
});
