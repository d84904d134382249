/**
 * Release threads over a real (in-memory SQLite) store and the Slack stand-in:
 * starting records and posts, a title open twice in a channel is refused (also
 * when two starts race), ending by title or id (ambiguous titles, already
 * ended, two ends racing), tails stopped on end, and a refused post withdrawing
 * the record.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import { UserError } from '../../../src/errors/user-error.js';
import { TITLE_MAX } from '../../../src/releases/releases.js';
import { ManualClock } from '../../../src/runtime/clock.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import type { Actor } from '../../../src/slack/handlers/context.js';
import { ReleaseThreads } from '../../../src/slack/releases/threads.js';
import { openStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/types.js';
import { TEST_BOT } from '../../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { countingStore } from '../../support/counting-store.js';
import { recordingLogger } from '../../support/slack/recording-logger.js';

const ALICE: Actor = { user: 'U0ALICE', team: 'T1', channel: 'C0OPS' };
const BOB: Actor = { user: 'U0BOB', team: 'T1', channel: 'C0OPS' };

let store: Store;
let slack: SlackStandIn;
let clock: ManualClock;
let stopped: string[];
let releases: ReleaseThreads;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  store = await openStore({ dataDir: ':memory:' });
  slack = await startSlackStandIn({ clock });
  stopped = [];
  let n = 0;
  releases = new ReleaseThreads({
    store,
    slack: new WebClient(TEST_BOT.token, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      // The refresh test stops Slack on purpose; its warnings are expected.
      logger: recordingLogger(),
    }),
    clock,
    logger: silentLogger,
    tails: {
      stopRelease: async (id) => {
        stopped.push(id);
        return 2;
      },
    },
    engine: { cancel: noCancel },
    newId: () => `rel-${++n}`,
  });
});
afterEach(async () => {
  await slack.stop();
  await store.close();
});

/** These tests end releases without waiting changes; nothing is ever cancelled. */
async function noCancel(): Promise<never> {
  throw new Error('no change to cancel');
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(p: Promise<unknown>): Promise<UserError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

describe('start', () => {
  it('records the release with the ts of the message it posted', async () => {
    const release = await releases.start(ALICE, '  Season 4   launch ');
    expect(release).toMatchObject({
      id: 'rel-1',
      title: 'Season 4 launch',
      status: 'open',
      createdBy: ALICE.user,
    });
    const message = slack.message('C0OPS', release.messageTs ?? '');
    expect(message?.text).toBe('Release Season 4 launch: 0 done, 0 waiting, 0 live tails');
    expect(await store.getRelease('rel-1')).toMatchObject({ messageTs: release.messageTs });
  });

  it('refuses a title already open in the channel, whatever its case and spacing; another channel may use it', async () => {
    await releases.start(ALICE, 'Season 4 launch');
    const err = await failure(releases.start(BOB, 'season 4  LAUNCH'));
    expect(err.kind).toBe('conflict');
    expect(err.message).toContain('already open in this channel (id `rel-1`)');
    await releases.start({ ...BOB, channel: 'C0OTHER' }, 'Season 4 launch');
    expect((await store.listReleases({ status: 'open' })).map((r) => r.channel)).toEqual([
      'C0OPS',
      'C0OTHER',
    ]);
  });

  it('two starts racing: one release, one message, one refusal', async () => {
    const results = await Promise.allSettled([
      releases.start(ALICE, 'Hotfix'),
      releases.start(BOB, 'Hotfix'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await store.listReleases({ status: 'open' })).toHaveLength(1);
    expect(slack.channelMessages('C0OPS')).toHaveLength(1);
  });

  it('a title too long to retype is refused before anything is stored', async () => {
    const err = await failure(releases.start(ALICE, 'x'.repeat(TITLE_MAX + 1)));
    expect(err.message).toContain(`at most ${TITLE_MAX} characters`);
    expect(await store.listReleases({})).toEqual([]);
  });

  it('when Slack refuses the post, the record is withdrawn and the user told what to do', async () => {
    const err = await failure(releases.start({ ...ALICE, channel: '' }, 'Nowhere'));
    expect(err.message).toContain('/invite @Harbormaster');
    expect(await store.listReleases({ status: 'open' })).toEqual([]);
    // A withdrawn start is neither refused nor found by its title.
    await failure(releases.end(ALICE, 'Nowhere'));
  });
});

describe('end', () => {
  it('by title: marks it ended, stops its tails, posts the summary in the thread, removes the buttons', async () => {
    const release = await releases.start(ALICE, 'Season 4 launch');
    clock.advance(90 * 60_000);
    const outcome = await releases.end(BOB, 'SEASON 4 launch');
    expect(outcome).toMatchObject({ kind: 'ended', tailsStopped: 2, release: { status: 'ended' } });
    expect(stopped).toEqual(['rel-1']);
    expect(await store.getRelease('rel-1')).toMatchObject({ status: 'ended', data: { endedBy: BOB.user } });
    const thread = slack.thread('C0OPS', release.messageTs ?? '').filter((m) => m.ts !== release.messageTs);
    expect(thread.map((m) => m.text)).toEqual([
      'Release Season 4 launch ended after 1 h 30 min: 0 applied, 0 failed, 0 rejected or cancelled, 0 approvals',
    ]);
    const message = slack.message('C0OPS', release.messageTs ?? '');
    expect(message?.text).toBe('Release ended: Season 4 launch (0 steps done)');
    expect(JSON.stringify(message?.blocks)).not.toContain('"actions"');
  });

  it('by id, from any channel of the workspace', async () => {
    await releases.start(ALICE, 'Launch');
    expect(await releases.end({ ...BOB, channel: 'C0ELSEWHERE' }, 'rel-1')).toMatchObject({ kind: 'ended' });
  });

  it('an id of another workspace is not found', async () => {
    await releases.start(ALICE, 'Launch');
    const err = await failure(releases.end({ ...BOB, team: 'T2' }, 'rel-1'));
    expect(err.kind).toBe('not_found');
  });

  it('a title open in several channels is ambiguous elsewhere, and means this channel’s release here', async () => {
    await releases.start(ALICE, 'Launch');
    await releases.start({ ...BOB, channel: 'C0OTHER' }, 'Launch');
    const elsewhere = await releases.end({ ...ALICE, channel: 'C0THIRD' }, 'launch');
    expect(elsewhere.kind).toBe('ambiguous');
    expect(elsewhere.kind === 'ambiguous' && elsewhere.matches.map((r) => r.id)).toEqual(['rel-1', 'rel-2']);
    expect(await releases.end({ ...ALICE, channel: 'C0OTHER' }, 'launch')).toMatchObject({
      kind: 'ended',
      release: { id: 'rel-2' },
    });
  });

  it('an ended release says so, by title and by id; an unknown title says how to start one', async () => {
    await releases.start(ALICE, 'Launch');
    await releases.end(ALICE, 'Launch');
    expect((await failure(releases.end(ALICE, 'Launch'))).message).toContain('has already ended');
    expect((await failure(releases.end(ALICE, 'rel-1'))).message).toContain('has already ended');
    expect((await failure(releases.end(ALICE, 'Nope'))).message).toContain('release start <title>');
  });

  it('two ends racing end it once: one summary', async () => {
    const release = await releases.start(ALICE, 'Launch');
    const results = await Promise.allSettled([releases.end(ALICE, 'rel-1'), releases.end(BOB, 'rel-1')]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(String(rejected.reason.message)).toMatch(/has (just been ended by someone else|already ended)/);
    expect(stopped).toEqual(['rel-1']);
    expect(
      slack.thread('C0OPS', release.messageTs ?? '').filter((m) => m.ts !== release.messageTs),
    ).toHaveLength(1);
  });
});

describe('buttons and refresh', () => {
  it('openRelease answers why the buttons of a missing or ended release do nothing', async () => {
    expect((await failure(releases.openRelease('rel-9'))).message).toBe('This release no longer exists.');
    await releases.start(ALICE, 'Launch');
    expect((await releases.openRelease('rel-1')).title).toBe('Launch');
    await releases.end(ALICE, 'Launch');
    expect((await failure(releases.openRelease('rel-1'))).message).toContain('has ended');
  });

  it('a snapshot reads changes, approvals, tails and where the messages are in four queries, however many changes the release has', async () => {
    const release = await releases.start(ALICE, 'Launch');
    const counted = countingStore(store);
    const counting = new ReleaseThreads({
      store: counted.store,
      slack: new WebClient(TEST_BOT.token, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }),
      clock,
      logger: silentLogger,
      tails: { stopRelease: async () => 0 },
      engine: { cancel: noCancel },
    });
    const plan = {
      preview: { summary: 'Promote game-server:1.2.0 to prod', lines: [], facts: {} },
      requirement: { mode: 'approval', required: 1, expiresInMs: 60_000, rule: 'default' },
      target: { environment: 'prod' },
    };
    for (let i = 0; i < 6; i++) {
      const id = `chg-${i}`;
      await store.createChange({
        id,
        operation: 'image.promote',
        request: {},
        preview: plan,
        requester: ALICE.user,
        origin: { workspace: 'T1', channel: 'C0OPS', releaseId: release.id },
        status: 'awaiting_approval',
        createdAt: clock.now() + i,
        updatedAt: clock.now() + i,
        expiresAt: clock.now() + 60_000,
      });
      if (i % 2 === 0)
        await store.addApproval({ changeId: id, userId: BOB.user, decision: 'approve', at: i });
    }
    const snap = await counting.snapshot(release);
    expect(snap.changes.map((c) => [c.id, c.approvals.length])).toEqual([
      ['chg-0', 1],
      ['chg-1', 0],
      ['chg-2', 1],
      ['chg-3', 0],
      ['chg-4', 1],
      ['chg-5', 0],
    ]);
    expect(Object.fromEntries(counted.calls)).toEqual({
      listChanges: 1,
      listTails: 1,
      listApprovalsFor: 1,
      changeMessages: 1,
    });
  });

  it('refresh redraws from the store and never throws; an unknown release is left alone', async () => {
    const release = await releases.start(ALICE, 'Launch');
    await store.createTail({
      id: 'tail-1',
      workspace: 'T1',
      channel: 'C0OPS',
      threadTs: release.messageTs,
      env: 'dev',
      vessel: 'lobby-1',
      releaseId: 'rel-1',
      startedBy: BOB.user,
      startedAt: clock.now(),
      status: 'active',
      state: {},
    });
    await releases.refresh('rel-1');
    expect(slack.message('C0OPS', release.messageTs ?? '')?.text).toBe(
      'Release Launch: 0 done, 0 waiting, 1 live tail',
    );
    await expect(releases.refresh('rel-9')).resolves.toBeUndefined();
    await slack.stop();
    await expect(releases.refresh('rel-1')).resolves.toBeUndefined();
    slack = await startSlackStandIn({ clock });
  });
});
