/**
 * The outbox reader (issue 39): what a replica without listeners published
 * reaches one replica that has them (claimed once per subscriber), what its
 * publisher told itself is left alone, and a row is delivered in seq order
 * only, a gap being waited for (PostgreSQL may commit a later seq first).
 */
import { afterEach, expect, it } from '@jest/globals';
import { createChangeEvents } from '../../src/changes/events.js';
import { OutboxReader } from '../../src/changes/outbox-reader.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { Events } from '../../src/runtime/events.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';

let store: SqliteStore | undefined;
const readers: OutboxReader[] = [];
afterEach(async () => {
  for (const r of readers.splice(0)) await r.stop();
  await store?.close();
});

const change = (id: string) => ({ id, origin: { workspace: 'T1', channel: 'C1', releaseId: 'rel-1' } });
const closed = (id: string) => ({ kind: 'closed', changes: [change(id)] });

function reader(s: Store, clock: ManualClock) {
  const changeEvents = createChangeEvents();
  const releaseEvents = new Events<{ releaseId: string }>();
  const heard: string[] = [];
  changeEvents.on((e) => {
    if (e.kind === 'closed') heard.push(...e.changes.map((c) => c.id));
  });
  const releases: string[] = [];
  releaseEvents.on((e) => void releases.push(e.releaseId));
  const r = new OutboxReader({
    store: s,
    changeEvents,
    releaseEvents,
    subscriber: 'surface',
    clock,
    pollMs: 1_000,
    claimTtlMs: 60_000,
    logger: silentLogger,
  });
  readers.push(r);
  return { r, heard, releases, changeEvents };
}

it('delivers a row nobody told to one reader of two, with its release, and leaves a told one alone', async () => {
  store = await openSqliteStore({ dataDir: ':memory:' });
  const clock = new ManualClock(1_000);
  const a = reader(store, clock);
  const b = reader(store, clock);
  await a.r.start();
  await b.r.start();
  const entry = (payload: unknown, toldHere: boolean) => ({
    topic: 'change',
    at: clock.now(),
    publisher: 'worker-1',
    toldHere,
    payload,
  });
  await store.appendOutbox(entry(closed('by-worker'), false));
  await store.appendOutbox(entry(closed('told-by-its-publisher'), true));
  await Promise.all([a.r.readNow(), b.r.readNow()]);
  await Promise.all([a.changeEvents.settled(), b.changeEvents.settled()]);
  expect([...a.heard, ...b.heard]).toEqual(['by-worker']);
  expect([...a.releases, ...b.releases]).toEqual(['rel-1']);
  // Read again: nothing is delivered twice.
  await Promise.all([a.r.readNow(), b.r.readNow()]);
  expect([...a.heard, ...b.heard]).toEqual(['by-worker']);
});

it('waits for a gap in the seqs, then takes the rows after it once the wait is over', async () => {
  store = await openSqliteStore({ dataDir: ':memory:' });
  const clock = new ManualClock(1_000);
  const a = reader(store, clock);
  await a.r.start();
  const entry = (payload: unknown) => ({
    topic: 'change',
    at: clock.now(),
    publisher: 'w',
    toldHere: false,
    payload,
  });
  const first = await store.appendOutbox(entry(closed('one')));
  await store.appendOutbox(entry(closed('gone')));
  await store.appendOutbox(entry(closed('three')));
  // The middle row as a write that never committed: its seq is a gap.
  store.db.prepare('DELETE FROM outbox WHERE seq = ?').run(first + 1);
  await a.r.readNow();
  await a.changeEvents.settled();
  expect(a.heard).toEqual(['one']);
  await clock.advance(10_000);
  await a.r.readNow();
  await a.changeEvents.settled();
  expect(a.heard).toEqual(['one', 'three']);
});
