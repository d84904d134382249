/**
 * The release domain without Slack (src/releases/releases.ts), over a real
 * in-memory SQLite store: which release a typed change joins, and ending a
 * release whose changes still wait (the question, the digest that must
 * match, the version check, cancel and keep).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ClickOutcome } from '../../src/changes/change.js';
import { toChange } from '../../src/changes/change.js';
import { UserError } from '../../src/errors/user-error.js';
import { Releases } from '../../src/releases/releases.js';
import { waitingDigest } from '../../src/releases/types.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { openStore } from '../../src/store/index.js';
import type { ChangeRecord, ReleaseRecord, Store } from '../../src/store/types.js';

const ALICE = { user: 'U0ALICE', team: 'T1', channel: 'C0OPS' };
const BOB = { user: 'U0BOB', team: 'T1', channel: 'C0OPS' };

let store: Store;
let clock: ManualClock;
let releases: Releases;
let cancels: string[];
/** Whether the fake engine lets a cancel through (the policy's say). */
let mayCancel: boolean;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  store = await openStore({ dataDir: ':memory:' });
  cancels = [];
  mayCancel = true;
  let n = 0;
  releases = new Releases({
    store,
    clock,
    logger: silentLogger,
    tails: { stopRelease: async () => 0 },
    cancel: async ({ changeId, user }): Promise<ClickOutcome> => {
      const record = (await store.getChange(changeId)) as ChangeRecord;
      if (!mayCancel)
        return {
          kind: 'refused',
          message: 'Only the requester can cancel it.',
          change: toChange(record, []),
        };
      cancels.push(changeId);
      const done = await store.transitionChange(
        changeId,
        ['pending', 'awaiting_approval', 'approved'],
        'cancelled',
        { error: { kind: 'cancelled', by: user } },
        { now: clock.now() },
      );
      return { kind: 'cancelled', change: toChange(done as ChangeRecord, []) };
    },
    newId: () => `rel-${++n}`,
  });
});
afterEach(async () => {
  await store.close();
});

/** A started release with its message placed (as the Slack side does). */
async function started(title: string, actor = ALICE): Promise<ReleaseRecord> {
  const created = await releases.start(actor, title);
  return releases.placed(created, `1700000000.00${created.id.slice(-1)}`);
}

/** A change of `release` waiting for its requester's confirm. */
async function waitingChange(release: ReleaseRecord, id: string): Promise<void> {
  await store.createChange({
    id,
    operation: 'vessel.delete',
    request: { environment: 'dev', vessel: id },
    preview: {
      preview: { summary: `Delete vessel ${id} in dev`, lines: [], facts: {} },
      requirement: { mode: 'confirm', expiresInMs: 60_000, rule: 'default' },
      target: { environment: 'dev', vessel: id },
    },
    requester: ALICE.user,
    origin: { workspace: 'T1', channel: 'C0OPS', releaseId: release.id },
    status: 'pending',
    createdAt: clock.now(),
    updatedAt: clock.now(),
    expiresAt: clock.now() + 60_000,
  });
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return (err as UserError).message;
}

describe('forChange', () => {
  it('joins the channel’s one open release, none when there is none, and asks when there are several', async () => {
    expect(await releases.forChange(ALICE, undefined)).toBeUndefined();
    const first = await started('Season 8');
    expect((await releases.forChange(ALICE, undefined))?.id).toBe(first.id);
    // Another channel's release is not this channel's default.
    expect(await releases.forChange({ ...ALICE, channel: 'C0OTHER' }, undefined)).toBeUndefined();
    // A start whose message is not posted yet is not joined.
    await releases.start(ALICE, 'Unposted');
    expect((await releases.forChange(ALICE, undefined))?.id).toBe(first.id);
    const second = await started('Hotfix');
    const asked = await refusal(releases.forChange(ALICE, undefined));
    expect(asked).toContain('2 releases are open in this channel');
    expect(asked).toContain(second.id);
    expect(await releases.forChange(ALICE, { kind: 'none' })).toBeUndefined();
    expect((await releases.forChange(ALICE, { kind: 'named', ref: 'hotfix' }))?.id).toBe(second.id);
    expect((await releases.forChange(ALICE, { kind: 'named', ref: first.id }))?.id).toBe(first.id);
  });

  it('refuses a named release that is unknown, ended or in another channel', async () => {
    expect(await refusal(releases.forChange(ALICE, { kind: 'named', ref: 'Nope' }))).toContain(
      'No open release is titled “Nope”',
    );
    const other = await started('Elsewhere', { ...BOB, channel: 'C0OTHER' });
    expect(await refusal(releases.forChange(ALICE, { kind: 'named', ref: other.id }))).toContain(
      'is open in another channel',
    );
    const ended = await started('Done');
    await releases.end(ALICE, ended.id);
    expect(await refusal(releases.forChange(ALICE, { kind: 'named', ref: ended.id }))).toContain('has ended');
  });
});

describe('end with waiting changes', () => {
  it('asks first, with a digest of what waits; the same digest and version end it, cancelling once', async () => {
    const release = await started('Season 8');
    await waitingChange(release, 'chg-1');
    await waitingChange(release, 'chg-2');
    const asked = await releases.end(ALICE, 'Season 8');
    if (asked.kind !== 'waiting') throw new Error(`expected a question, got ${asked.kind}`);
    expect(asked.waiting.map((c) => c.id)).toEqual(['chg-1', 'chg-2']);
    expect(asked.digest).toBe(waitingDigest([{ id: 'chg-2' }, { id: 'chg-1' }]));
    expect((await store.getRelease(release.id))?.status).toBe('open');

    const choice = { waiting: 'cancel' as const, version: asked.release.version, digest: asked.digest };
    const ended = await releases.end(ALICE, release.id, choice);
    if (ended.kind !== 'ended') throw new Error(`expected the end, got ${ended.kind}`);
    expect(ended.cancelled.map((o) => o.change.id)).toEqual(['chg-1', 'chg-2']);
    expect(ended.summary).toMatchObject({ cancelled: 2, open: 0 });
    // The same choice again (a double click): ended already, nothing cancelled twice.
    expect(await refusal(releases.end(ALICE, release.id, choice))).toContain('has already ended');
    expect(cancels).toEqual(['chg-1', 'chg-2']);
  });

  it('asks again when what waits has changed; a stale version is refused; keep leaves them waiting', async () => {
    const release = await started('Season 8');
    await waitingChange(release, 'chg-1');
    const asked = await releases.end(ALICE, release.id);
    if (asked.kind !== 'waiting') throw new Error('expected a question');
    await waitingChange(release, 'chg-2');
    const again = await releases.end(ALICE, release.id, {
      waiting: 'keep',
      version: asked.release.version,
      digest: asked.digest,
    });
    expect(again).toMatchObject({ kind: 'waiting', waiting: [{ id: 'chg-1' }, { id: 'chg-2' }] });
    if (again.kind !== 'waiting') throw new Error('expected a question');

    expect(
      await refusal(releases.end(ALICE, release.id, { waiting: 'keep', version: 99, digest: again.digest })),
    ).toContain('changed since you chose');

    const kept = await releases.end(ALICE, release.id, {
      waiting: 'keep',
      version: again.release.version,
      digest: again.digest,
    });
    expect(kept).toMatchObject({ kind: 'ended', cancelled: [], kept: [{ id: 'chg-1' }, { id: 'chg-2' }] });
    expect(cancels).toEqual([]);
    expect((await store.getChange('chg-1'))?.status).toBe('pending');
  });

  it('a cancel the policy refuses is reported, and the release still ends', async () => {
    const release = await started('Season 8');
    await waitingChange(release, 'chg-1');
    const asked = await releases.end(BOB, release.id);
    if (asked.kind !== 'waiting') throw new Error('expected a question');
    mayCancel = false;
    const ended = await releases.end(BOB, release.id, {
      waiting: 'cancel',
      version: asked.release.version,
      digest: asked.digest,
    });
    expect(ended).toMatchObject({
      kind: 'ended',
      cancelled: [],
      notCancelled: [{ change: { id: 'chg-1' }, reason: 'Only the requester can cancel it.' }],
    });
    expect((await store.getChange('chg-1'))?.status).toBe('pending');
  });
});
