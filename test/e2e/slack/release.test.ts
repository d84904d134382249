/**
 * Release threads end to end, with the real bot, the simulator and the Slack
 * stand-in: a release is started; its buttons open modals whose previews,
 * approvals and results land in the release thread; the release message
 * keeps count; a vessel added from it can be tailed there with one click;
 * the end stops the tails, posts the summary and leaves the message without
 * buttons; and all of it survives a restart on the same data dir.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  CHANGE_ACTIONS,
  RELEASE_ACTIONS,
  RELEASE_END_ACTION,
  RELEASE_ROLLBACK_ACTION,
  TAIL_ACTIONS,
} from '../../../src/slack/ids.js';
import { postSigned, slashCommandBody } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import {
  buttonIds,
  buttons,
  current,
  openedViewId,
  shown,
  viewOf as viewIn,
  waitForThreadReply,
} from './harness-extras.js';
import {
  startRelease as startReleaseIn,
  thread as threadOf,
  viaButton as viaButtonIn,
  viaSelect,
} from './release-helpers.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const RELEASE_BUTTONS = [
  RELEASE_ACTIONS.promote,
  RELEASE_ACTIONS.formationAdd,
  RELEASE_ACTIONS.formationRemove,
  RELEASE_ACTIONS.tailLogs,
  RELEASE_END_ACTION,
];

const startRelease = (title: string) => startReleaseIn(h, title);
const thread = (release: StoredMessage) => threadOf(h, release);
const viewOf = (viewId: string) => viewIn(h, viewId);
const viaButton = (
  release: StoredMessage,
  action: string,
  place: Record<string, string>,
  given: Record<string, string>,
  by: 'enter' | 'next' = 'enter',
) => viaButtonIn(h, release, action, place, given, by);

describe('release threads', () => {
  it('a release message with the common steps as buttons; a second start of the title is refused', async () => {
    const release = await startRelease('Season 4 launch');
    expect(release.text).toMatch(/^Release Season 4 launch/);
    expect(shown(release)).toContain('Release: Season 4 launch');
    expect(buttonIds(release)).toEqual(RELEASE_BUTTONS);
    const id = buttons(release)[0]?.value ?? '';
    expect(id).toMatch(/^rel-/);
    expect(buttons(release).every((b) => b.value === id)).toBe(true);

    await h.slash('release start season 4   LAUNCH');
    expect(h.ephemeralTexts().at(-1)).toContain(`already open in this channel (id \`${id}\`)`);
    expect(h.lastMessage().ts).toBe(release.ts);
  });

  // Every click here waits for the bot to go idle, which includes the follow-ups (a
  // promotion's rollout, a vessel's scheduling, a tail's first lines): a few seconds on a
  // loaded two-core machine, so this test gets more than the default 20 s.
  const WHOLE_RELEASE_MS = 60_000;

  it(
    'promote, add and remove from the buttons run in the thread; a vessel added is tailed in one click; end sums up',
    async () => {
      const release = await startRelease('Season 4 launch');
      const releaseId = buttons(release)[0]?.value ?? '';

      // Promote into prod: preview in the thread, approval by an SRE, result in the thread.
      const promote = await viaButton(
        release,
        RELEASE_ACTIONS.promote,
        {},
        {
          image: 'game-server:1.2.0',
          targetBranch: 'prod',
        },
      );
      expect(promote.threadTs).toBe(release.ts);
      expect(promote.text).toMatch(/^Waiting for approval: .*game-server:1\.2\.0/);
      expect(h.lastMessage().ts).toBe(release.ts);
      expect(shown(current(h, release))).toContain('Waiting for approval (1)');
      expect(shown(current(h, release))).toContain('waiting for approval by');

      await h.click(promote, CHANGE_ACTIONS.approve, BOB);
      expect(current(h, promote).text).toMatch(/^Done/);
      const afterPromote = shown(current(h, release));
      expect(afterPromote).toContain('Steps done (1)');
      expect(afterPromote).toContain(`approved by <@${BOB.id}>`);
      expect(afterPromote).not.toContain('Waiting');

      // Add a vessel to a formation: the where step, a preview, a confirmation, a follow-up with "Tail logs".
      const add = await viaButton(
        release,
        RELEASE_ACTIONS.formationAdd,
        { 'where.environment': 'dev', 'where.formation': 'lobby' },
        { vessel: 'lobby-3', region: 'eu-central' },
      );
      expect(add.text).toMatch(/^Confirm this change: .*lobby-3/);
      await h.click(add, CHANGE_ACTIONS.confirm);
      expect(h.sim.state.getVessel('dev', 'lobby-3')).toMatchObject({
        metadata: {
          environment: 'dev',
          name: 'lobby-3',
          ownerReferences: [{ kind: 'Formation', name: 'lobby' }],
        },
        spec: { region: 'eu-central' },
      });
      await waitForThreadReply(h, release, /lobby-3 is placed/);
      const scheduled = thread(release).find((m) => /lobby-3 is placed/.test(m.text ?? ''));
      const tailButton = buttons(scheduled).find((b) => b.action_id === TAIL_ACTIONS.start);
      expect(JSON.parse(tailButton?.value ?? '{}')).toEqual({
        environment: 'dev',
        vessel: 'lobby-3',
        releaseId,
      });
      expect(shown(current(h, release))).toContain('Steps done (2)');

      await h.click(scheduled as StoredMessage, TAIL_ACTIONS.start);
      const [tail] = await h.running.core.store.listTails({ releaseId, status: 'active' });
      expect(tail).toMatchObject({
        vessel: 'lobby-3',
        env: 'dev',
        threadTs: release.ts,
        startedBy: ALICE.id,
      });
      expect(thread(release).some((m) => m.ts === tail?.messageTs)).toBe(true);
      expect(shown(current(h, release))).toContain('Live tails (1)');

      // Remove a vessel: a destructive preview, confirmed, in the thread.
      const remove = await viaButton(
        release,
        RELEASE_ACTIONS.formationRemove,
        { 'where.environment': 'dev', 'where.formation': 'lobby' },
        { vessel: 'lobby-1' },
        'next',
      );
      expect(remove.text).toMatch(/^Confirm this destructive change: Remove vessel lobby-1/);
      await h.click(remove, CHANGE_ACTIONS.confirm);
      expect(current(h, remove).text).toMatch(/^Done/);
      expect(shown(current(h, release))).toContain('Steps done (3)');

      // End: tails stopped, summary in the thread, the message a record without buttons.
      await h.slash('release end Season 4 launch');
      expect(h.ephemeralTexts().at(-1)).toMatch(/Ended release \*Season 4 launch\*.*Stopped 1 live tail/);
      expect(await h.running.core.store.listTails({ releaseId, status: 'active' })).toEqual([]);
      const summary = thread(release).find((m) => /^Release Season 4 launch ended after/.test(m.text ?? ''));
      expect(summary?.text).toMatch(/3 applied, 0 failed, 0 rejected or cancelled, 1 approval$/);
      expect(shown(summary)).toContain('Tails stopped');
      const ended = current(h, release);
      // Only the way back stays on the ended board (issue 28): its changes were applied.
      expect(buttonIds(ended)).toEqual([RELEASE_ROLLBACK_ACTION]);
      expect(shown(ended)).toContain('Release ended: Season 4 launch');
      expect(shown(ended)).toContain(`ended by <@${ALICE.id}>`);

      await h.slash('release end Season 4 launch');
      expect(h.ephemeralTexts().at(-1)).toContain('has already ended');
    },
    WHOLE_RELEASE_MS,
  );

  it('a rejected change shows as rejected; a button of an ended release says so in the modal', async () => {
    const release = await startRelease('hotfix');
    const promote = await viaButton(
      release,
      RELEASE_ACTIONS.promote,
      {},
      {
        image: 'game-server:1.2.0',
        targetBranch: 'prod',
      },
    );
    await h.click(promote, CHANGE_ACTIONS.reject, BOB);
    await h.submit(
      openedViewId(h),
      { reason: { reason: { type: 'plain_text_input', value: 'not today' } } },
      BOB,
    );
    expect(shown(current(h, release))).toContain(`rejected by <@${BOB.id}>`);
    // A client that has not redrawn the message yet still shows the buttons.
    const stale = structuredClone(current(h, release));
    await h.slash('release end hotfix');
    await h.click(stale, RELEASE_ACTIONS.promote);
    expect(shown(viewOf(openedViewId(h)))).toContain('has ended');
  });

  it('survives a restart: the buttons and `release end <title>` work on the new process', async () => {
    const release = await startRelease('Season 5');
    await h.restart();

    await h.click(release, RELEASE_ACTIONS.formationRemove);
    const viewId = openedViewId(h);
    expect(JSON.parse(viewOf(viewId).private_metadata ?? '{}')).toMatchObject({
      kind: 'formation.remove',
      threadTs: release.ts,
    });

    await h.slash('release end Season 5');
    expect(h.ephemeralTexts().at(-1)).toContain('Ended release *Season 5*');
    expect(buttonIds(current(h, release))).toEqual([]);
    expect(thread(release).some((m) => /^Release Season 5 ended after/.test(m.text ?? ''))).toBe(true);
  });

  it('an ambiguous title lists the matching ids; the id then ends the one meant', async () => {
    const here = await startRelease('Launch');
    h.slack.channels.set('C0OTHER', 'other');
    await postSigned(
      h.eventsUrl,
      SIGNING_SECRET,
      slashCommandBody({
        text: 'release start Launch',
        channel_id: 'C0OTHER',
        channel_name: 'other',
        user_id: BOB.id,
        user_name: BOB.name,
        response_url: h.slack.responseUrl({ channel: 'C0OTHER', user: BOB.id }),
        trigger_id: h.slack.triggerId(),
      }),
    );
    await h.settle();
    const open = await h.running.core.store.listReleases({ status: 'open' });
    expect(open).toHaveLength(2);

    // From a third channel the title could mean either.
    await postSigned(
      h.eventsUrl,
      SIGNING_SECRET,
      slashCommandBody({
        text: 'release end Launch',
        channel_id: 'C0THIRD',
        channel_name: 'third',
        user_id: ALICE.id,
        user_name: ALICE.name,
        response_url: h.slack.responseUrl({ channel: 'C0THIRD', user: ALICE.id }),
        trigger_id: h.slack.triggerId(),
      }),
    );
    await h.settle();
    const usage = h.ephemeralTexts().at(-1) ?? '';
    for (const r of open) expect(usage).toContain(r.id);
    expect(usage).toContain('Usage');

    // In its own channel the title means that channel's release.
    await h.slash('release end launch');
    expect(buttonIds(current(h, here))).toEqual([]);
    const left = await h.running.core.store.listReleases({ status: 'open' });
    expect(left.map((r) => r.channel)).toEqual(['C0OTHER']);
  });

  it('scale and roll out from the "Add a change…" select run in the thread and are recorded as the release’s steps', async () => {
    const release = await startRelease('Arena event');
    const scale = await viaSelect(
      h,
      release,
      'Scale armada',
      { 'where.environment': 'dev' },
      { fleet: 'duel', type: 'baremetal', minReplicas: '2', bufferSize: '2', maxReplicas: '12' },
    );
    expect(scale.text).toContain('Scale armada duel, region type baremetal (dev)');
    await h.click(scale, CHANGE_ACTIONS.confirm);
    expect(h.sim.state.getArmada('dev', 'duel')?.spec.distribution[0]?.maxReplicas).toBe(12);

    const rollout = await viaSelect(
      h,
      release,
      'Roll out ArmadaSet',
      { 'where.environment': 'dev' },
      { fleet: 'arena', container: 'game-server', image: 'game-server:1.2.0' },
    );
    expect(rollout.text).toContain('Roll out ArmadaSet arena (dev), container game-server');
    await h.click(rollout, CHANGE_ACTIONS.confirm);
    await waitForThreadReply(
      h,
      release,
      /ArmadaSet arena \(dev\): every game server runs game-server:1.2.0: Synced/,
    );
    const board = shown(current(h, release));
    expect(board).toContain('Steps done (2)');
    expect(board).toContain('Scaled armada duel');
    expect(board).toContain('Set ArmadaSet arena (dev), container game-server, to game-server:1.2.0');
  });
});
