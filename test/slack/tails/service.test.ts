/**
 * The TailService as replicas see it: two services on one real store (SQLite
 * in memory), each with its own ManualClock (a replica whose clock does not
 * move is one that has stopped renewing, i.e. is dead), one fake Slack they
 * share, and fake log sources.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { Events, type ReleaseContentChanged } from '../../../src/runtime/events.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createTailService } from '../../../src/slack/tails/surface.js';
import { openStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/types.js';
import { readProgress } from '../../../src/tails/progress.js';
import type { ReplicaTailService } from '../../../src/tails/service.js';
import type { TailStartInput } from '../../../src/tails/types.js';
import { FakeLogSource, FakeSlack, untilIdle } from './fakes.js';

interface Replica {
  id: string;
  service: ReplicaTailService;
  clock: ManualClock;
  source: FakeLogSource;
}

let store: Store;
let slack: FakeSlack;
let replicas: Replica[];
let ids: number;

beforeEach(async () => {
  store = await openStore({ dataDir: ':memory:' });
  slack = new FakeSlack();
  replicas = [];
  ids = 0;
});

afterEach(async () => {
  for (const r of replicas) await r.service.close();
  await store.close();
});

function replica(
  id: string,
  start = Date.UTC(2026, 0, 1),
  releaseEvents?: Events<ReleaseContentChanged>,
): Replica {
  const clock = new ManualClock(start);
  const source = new FakeLogSource();
  const service = createTailService({
    store,
    source,
    slack,
    replicaId: id,
    logger: silentLogger,
    clock,
    newId: () => `tail-${++ids}`,
    random: () => 1,
    ...(releaseEvents ? { releaseEvents } : {}),
  });
  const r = { id, service, clock, source };
  replicas.push(r);
  return r;
}

const START: TailStartInput = {
  workspace: 'T1',
  channel: 'C1',
  env: 'dev',
  vessel: 'lobby-1',
  user: 'U0ALICE',
};

/**
 * Moves `clock` by `stepMs` whenever the replica is idle, until `cond` holds (posts wait for
 * budget slots, stops for renewals). Everything here is in memory (fakes, the synchronous
 * SQLite store, ManualClocks), so untilIdle is the moment the code waits on the clock or on
 * nothing: the clock moves only then, never while work is still running.
 */
async function pumpUntil(clock: ManualClock, cond: () => boolean, what: string, stepMs = 250): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    await untilIdle();
    if (cond()) return;
    await clock.advance(stepMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Pumps `clock` (see pumpUntil) until `promise` settles. */
async function pumped<T>(clock: ManualClock, promise: Promise<T>, stepMs = 250): Promise<T> {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  void promise.then(mark, mark);
  await pumpUntil(clock, () => settled, 'the promise to settle', stepMs);
  return promise;
}

async function status(id: string) {
  return (await store.getTail(id))?.status;
}

describe('TailService', () => {
  it('start posts a "Tailing" parent and the live message in its thread, records the tail and takes its lease', async () => {
    const a = replica('replica-a');
    const record = await pumped(a.clock, a.service.start(START));
    expect(record).toMatchObject({ id: 'tail-1', status: 'active', startedBy: 'U0ALICE', env: 'dev' });
    const [parent, live] = slack.ok('chat.postMessage');
    expect(parent?.threadTs).toBeUndefined();
    expect(slack.shown(parent?.ts ?? '')).toContain('Tailing *lobby-1* (dev) for <@U0ALICE>');
    expect(live?.threadTs).toBe(parent?.ts);
    expect(record).toMatchObject({ threadTs: parent?.ts, messageTs: live?.ts });
    expect(readProgress(record.state)).toMatchObject({ owner: 'replica-a', messageTs: live?.ts, seen: 0 });
    expect(await store.getLease('tail:tail-1')).toMatchObject({ owner: 'replica-a' });
    expect(a.service.runningHere()).toEqual(['tail-1']);
    await a.source.whenOpen();
    a.source.emit(['hello']);
    await pumpUntil(a.clock, () => slack.shown(live?.ts ?? '').includes('hello'), 'the line');
    expect(readProgress((await store.getTail('tail-1'))?.state)).toMatchObject({ seen: 1 });
  });

  it('start in a given thread (a release thread) posts no parent', async () => {
    const a = replica('replica-a');
    const record = await pumped(
      a.clock,
      a.service.start({ ...START, threadTs: '1699.1', releaseId: 'rel-1' }),
    );
    expect(slack.ok('chat.postMessage').map((c) => c.threadTs)).toEqual(['1699.1']);
    expect(record).toMatchObject({ threadTs: '1699.1', releaseId: 'rel-1' });
  });

  it('a tail in a release thread keeps to one message and scrolls it, where its own thread would get a part 2', async () => {
    const long = (i: number) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(90)}`;
    /** Fills a message (about 29 such lines), then overflows it; returns the tail's posts in its thread. */
    const overflow = async (input: TailStartInput, r: Replica) => {
      const { messageTs, threadTs } = await pumped(r.clock, r.service.start(input));
      await r.source.whenOpen();
      r.source.emit(Array.from({ length: 29 }, (_, i) => long(i)));
      await pumpUntil(r.clock, () => slack.shown(messageTs ?? '').includes('line 0028'), 'a full message');
      r.source.emit(Array.from({ length: 10 }, (_, i) => long(100 + i)));
      const posts = () => slack.ok('chat.postMessage').filter((c) => c.threadTs === threadTs);
      await pumpUntil(
        r.clock,
        () => posts().some((c) => slack.shown(c.ts).includes('line 0109')),
        'the new lines',
      );
      return { messageTs, posts: posts() };
    };
    // Its own thread: the full message is frozen as part 1 and the new lines start a second message.
    const own = await overflow(START, replica('replica-a'));
    expect(own.posts).toHaveLength(2);
    expect(slack.shown(own.messageTs ?? '')).toContain('continued below');

    // A release thread: one message, scrolled in place; the release's own replies stay in view.
    const inRelease = await overflow(
      { ...START, threadTs: '1699.1', releaseId: 'rel-1' },
      replica('replica-b'),
    );
    expect(inRelease.posts).toHaveLength(1);
    const shown = slack.shown(inRelease.messageTs ?? '');
    expect(shown).toContain('line 0109');
    expect(shown).not.toContain('continued below');
    expect(shown).not.toContain('line 0000');
  });

  it('stop on the owner: final message, record stopped, lease released; a second stop says so', async () => {
    const a = replica('replica-a');
    const { id, messageTs } = await pumped(a.clock, a.service.start(START));
    await a.source.whenOpen();
    a.source.emit(['one', 'two']);
    await expect(a.service.stop(id, 'U0BOB')).resolves.toBe('stopped');
    await pumped(a.clock, a.service.settled(id));
    expect(slack.shown(messageTs ?? '')).toContain('stopped by <@U0BOB> · 2 lines seen · 0 never shown');
    expect(await store.getTail(id)).toMatchObject({ status: 'stopped', stopReason: 'stopped' });
    expect(await store.getLease(`tail:${id}`)).toBeUndefined();
    await expect(a.service.stop(id, 'U0BOB')).resolves.toBe('already_stopped');
    await expect(a.service.stop('no-such-tail', 'U0BOB')).rejects.toThrow('not known');
  });

  it('stop on another replica is recorded and the owner stops at its next renewal', async () => {
    const a = replica('replica-a');
    const b = replica('replica-b');
    const { id, messageTs } = await pumped(a.clock, a.service.start(START));
    await expect(b.service.stop(id, 'U0BOB')).resolves.toBe('requested');
    expect((await store.getTail(id))?.state).toMatchObject({ stopRequest: { kind: 'stopped', by: 'U0BOB' } });
    expect(await status(id)).toBe('active');
    await a.clock.advance(5_000); // the renewal
    await pumped(a.clock, a.service.settled(id));
    expect(await status(id)).toBe('stopped');
    expect(slack.shown(messageTs ?? '')).toContain('stopped by <@U0BOB>');
  });

  it('a tail of a release announces its start and its recorded stop to the release; other tails announce nothing', async () => {
    const releaseEvents = new Events<ReleaseContentChanged>();
    const heard: string[] = [];
    releaseEvents.on(async ({ releaseId }) => {
      const active = await store.listTails({ releaseId, status: 'active' });
      heard.push(`${releaseId}: ${active.length} active`);
    });
    const a = replica('replica-a', undefined, releaseEvents);
    const inRelease = await pumped(
      a.clock,
      a.service.start({ ...START, threadTs: 'r.1', releaseId: 'rel-1' }),
    );
    const plain = await pumped(a.clock, a.service.start(START));
    expect(heard).toEqual(['rel-1: 1 active']);
    await a.service.stop(plain.id, 'U0BOB');
    await pumped(a.clock, a.service.settled(plain.id));
    await a.service.stop(inRelease.id, 'U0BOB');
    await pumped(a.clock, a.service.settled(inRelease.id));
    expect(heard).toEqual(['rel-1: 1 active', 'rel-1: 0 active']);
  });

  it('stopRelease stops every active tail of the release, on whichever replica, and no other', async () => {
    const a = replica('replica-a');
    const b = replica('replica-b');
    const one = await pumped(a.clock, a.service.start({ ...START, threadTs: 'r.1', releaseId: 'rel-1' }));
    const two = await pumped(a.clock, a.service.start({ ...START, threadTs: 'r.1', releaseId: 'rel-1' }));
    const other = await pumped(a.clock, a.service.start({ ...START, threadTs: 'r.2', releaseId: 'rel-2' }));
    await expect(b.service.stopRelease('rel-1')).resolves.toBe(2);
    await a.clock.advance(5_000);
    await pumped(a.clock, Promise.all([a.service.settled(one.id), a.service.settled(two.id)]));
    expect(await store.getTail(one.id)).toMatchObject({ status: 'stopped', stopReason: 'release_ended' });
    expect(await status(two.id)).toBe('stopped');
    expect(await status(other.id)).toBe('active');
    expect(slack.shown(one.messageTs ?? '')).toContain('stopped: the release ended');
    await expect(a.service.stopRelease('rel-1')).resolves.toBe(0);
  });

  it('a replica takes over a tail whose owner stopped renewing, says so in the thread and keeps its message', async () => {
    const a = replica('replica-a');
    const b = replica('replica-b');
    const { id, messageTs, threadTs } = await pumped(a.clock, a.service.start(START));
    await a.source.whenOpen();
    a.source.emit(['from a']);
    await pumpUntil(a.clock, () => slack.shown(messageTs ?? '').includes('from a'), 'the first line');
    // Replica A is now "dead": its clock stands still, so it never renews. B's moves past the lease.
    await b.service.startScanning();
    expect(b.service.runningHere()).toEqual([]);
    await b.clock.advance(a.clock.now() - b.clock.now() + 10_000);
    expect(b.service.runningHere()).toEqual([]);
    await pumpUntil(b.clock, () => b.service.runningHere().includes(id), 'the takeover', 1000);
    await pumpUntil(b.clock, () => slack.ok('chat.postMessage').length === 3, 'the takeover notice');
    const notice = slack.ok('chat.postMessage')[2];
    expect(notice?.threadTs).toBe(threadTs);
    expect(slack.shown(notice?.ts ?? '')).toContain('Taken over by replica `replica-b`');
    expect(await store.getLease(`tail:${id}`)).toMatchObject({ owner: 'replica-b' });
    await b.source.whenOpen();
    expect(b.source.asked).toEqual([0]);
    b.source.emit(['from b']);
    await pumpUntil(b.clock, () => slack.shown(messageTs ?? '').includes('from b'), "b's line");
    const shown = slack.shown(messageTs ?? '');
    expect(shown).toContain('from a');
    expect(shown).toContain('resumed by replica replica-b');
    expect(shown).toContain('2 lines seen');
    // A comes back to life: its next renewal finds the lease gone and it lets go without a word.
    const writes = slack.calls.length;
    await a.clock.advance(5_000);
    await untilIdle(); // a lets go of the tail at that renewal, with no further time
    expect(a.service.runningHere()).toEqual([]);
    expect(slack.calls.length).toBe(writes);
    expect(await status(id)).toBe('active');
  });

  it('Stop on a tail nobody follows any more takes it over and stops it at once', async () => {
    const a = replica('replica-a');
    const b = replica('replica-b');
    const { id, messageTs } = await pumped(a.clock, a.service.start(START));
    await b.clock.advance(a.clock.now() - b.clock.now() + 15_000);
    const outcome = b.service.stop(id, 'U0CAROL');
    await expect(outcome).resolves.toBe('stopped');
    await pumped(b.clock, b.service.settled(id));
    expect(await store.getTail(id)).toMatchObject({ status: 'stopped', stopReason: 'stopped' });
    expect(slack.shown(messageTs ?? '')).toContain('stopped by <@U0CAROL>');
    // No "taken over" notice for a tail that is only being stopped.
    expect(slack.ok('chat.postMessage')).toHaveLength(2);
  });

  it('close leaves tails active and their leases free; the same replica restarted resumes them quietly', async () => {
    const a = replica('replica-a');
    const { id, messageTs } = await pumped(a.clock, a.service.start(START));
    await a.source.whenOpen();
    a.source.emit(['before restart']);
    await pumpUntil(a.clock, () => slack.shown(messageTs ?? '').includes('before restart'), 'the line');
    await a.service.close();
    expect(await status(id)).toBe('active');
    expect(await store.getLease(`tail:${id}`)).toBeUndefined();
    expect(a.source.open).toBe(false);

    const again = replica('replica-a', a.clock.now());
    await again.service.startScanning();
    expect(again.service.runningHere()).toEqual([id]);
    await again.source.whenOpen(); // the resumed stream
    again.source.emit(['after restart']);
    await pumpUntil(again.clock, () => slack.shown(messageTs ?? '').includes('after restart'), 'the line');
    expect(slack.shown(messageTs ?? '')).toContain('before restart');
    expect(slack.shown(messageTs ?? '')).toContain('2 lines seen');
    expect(slack.ok('chat.postMessage')).toHaveLength(2); // no takeover notice from itself
  });

  it('a stop recorded while nobody ran the tail ends it as soon as a replica resumes it', async () => {
    const a = replica('replica-a');
    const { id, messageTs } = await pumped(a.clock, a.service.start(START));
    await a.service.close();
    const b = replica('replica-b', a.clock.now());
    // Recorded by a replica that cannot take the lease at that moment (it is still A's, say).
    const record = await store.getTail(id);
    await store.updateTail(id, {
      state: {
        ...(record?.state as object),
        stopRequest: { kind: 'release_ended', release: 'rel-9', at: 1 },
      },
    });
    await b.service.startScanning();
    await pumped(b.clock, b.service.settled(id));
    expect(await store.getTail(id)).toMatchObject({ status: 'stopped', stopReason: 'release_ended' });
    expect(slack.shown(messageTs ?? '')).toContain('stopped: the release ended');
  });

  it('refuses to start once closed', async () => {
    const a = replica('replica-a');
    await a.service.close();
    await expect(a.service.start(START)).rejects.toThrow('shutting down');
  });
});
