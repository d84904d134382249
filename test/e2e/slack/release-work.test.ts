/**
 * Issue 18.7, "Releases miss work", end to end (signed requests into the real
 * bot, the simulator, the Slack stand-in): a change typed in the channel of
 * its one open release joins it; `--release` names one, `--no-release` keeps
 * a change out, and with two open the bot asks which; every change operation
 * is reachable from the release message; ending a release whose changes still
 * wait names them and asks "Cancel them and end" or "Keep them and end", once.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  CHANGE_ACTIONS,
  MODAL_CALLBACKS,
  RELEASE_END_ACTION,
  RELEASE_END_CHOICE_ACTIONS,
} from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { postSigned, slashCommandBody } from '../../../src/workspace/signing.js';
import type { EphemeralMessage, StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import {
  buttonIds,
  buttons,
  clickEphemeral,
  current,
  openedViewId,
  shown,
  viewOf,
} from './harness-extras.js';
import { addOptions, latestPreview, startRelease, thread, viaSelect } from './release-helpers.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** The latest ephemeral message ALICE got. */
function lastEphemeral(): EphemeralMessage {
  // A change typed into the release is answered with a note linking its preview (issue 30.8); the questions are what count here.
  const last = h.slack
    .ephemerals()
    .filter((e) => e.user === ALICE.id && !(e.text ?? '').startsWith('Joined release'))
    .at(-1);
  if (!last) throw new Error('no ephemeral message');
  return last;
}

/** The release's id, from its buttons. */
function idOf(release: StoredMessage): string {
  return buttons(release)[0]?.value ?? '';
}

describe('a change typed in a release channel', () => {
  it('joins the channel’s one open release: the issue’s `vessel delete dev duel-1` and Confirm are a step of it', async () => {
    const release = await startRelease(h, 'Season 8');
    await h.slash('vessel delete dev duel-1');
    // The preview is in the release thread, not at the top of the channel.
    expect(h.lastMessage().ts).toBe(release.ts);
    const preview = latestPreview(h, release);
    expect(preview.text).toMatch(/^Confirm this destructive change: Delete vessel duel-1/);
    expect(shown(current(h, release))).toContain('Waiting (1)');

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(current(h, preview).text).toMatch(/^Done/);
    const board = shown(current(h, release));
    expect(board).toContain('Steps done (1)');
    expect(board).toContain('Deleted vessel duel-1 in dev');
    expect(board).not.toContain('Nothing done yet');
    const [change] = await h.running.core.store.listChanges({ releaseId: idOf(release) });
    expect(change).toMatchObject({ operation: 'vessel.delete', status: 'succeeded' });
  });

  it('`--no-release` keeps it out; `--release` names the release; a changing form opened by a command joins too', async () => {
    const release = await startRelease(h, 'Season 8');
    await h.slash('vessel delete dev duel-1 --no-release');
    const outside = h.lastMessage();
    expect(outside.ts).not.toBe(release.ts);
    expect(outside.threadTs).toBeUndefined();
    expect(outside.text).toMatch(/Delete vessel duel-1/);
    expect(thread(h, release)).toEqual([]);

    await h.slash('formation remove dev lobby lobby-1 --release "season 8"');
    expect(latestPreview(h, release).text).toMatch(/Remove vessel lobby-1/);

    await h.slash(`vessel create dev --release ${idOf(release)}`);
    const meta = JSON.parse(viewOf(h, openedViewId(h)).private_metadata ?? '{}');
    expect(meta).toMatchObject({
      kind: 'vessel.create',
      releaseId: idOf(release),
      threadTs: release.ts,
    });
    expect(viewOf(h, openedViewId(h)).callback_id).toBe(MODAL_CALLBACKS['vessel.create']);
  });

  it('with two releases open in the channel it asks which; bad `--release` uses are explained', async () => {
    const first = await startRelease(h, 'Season 8');
    const second = await startRelease(h, 'Hotfix');
    await h.slash('vessel delete dev duel-1');
    const asked = h.ephemeralTexts().at(-1) ?? '';
    expect(asked).toContain('2 releases are open in this channel');
    expect(asked).toContain(idOf(first));
    expect(asked).toContain(idOf(second));
    expect(asked).toContain('`--release &lt;title-or-id&gt;`');
    expect(await h.running.core.store.listChanges({})).toEqual([]);

    await h.slash('vessel delete dev duel-1 --release hotfix');
    expect(latestPreview(h, second).text).toMatch(/Delete vessel duel-1/);
    expect(thread(h, first)).toEqual([]);

    await h.slash('vessel delete dev duel-1 --release "Season 9"');
    expect(h.ephemeralTexts().at(-1)).toContain('No open release is titled “Season 9”');
    await h.slash('vessel delete dev duel-1 --release');
    expect(h.ephemeralTexts().at(-1)).toContain("`--release` needs the release's title or id");
    // A release of another channel is not joined from here: the change is judged and previewed where typed.
    h.slack.channels.set('C0OTHER', 'other');
    await postSigned(
      h.eventsUrl,
      SIGNING_SECRET,
      slashCommandBody({
        text: 'vessel delete dev duel-1 --release hotfix',
        channel_id: 'C0OTHER',
        channel_name: 'other',
        user_id: ALICE.id,
        user_name: ALICE.name,
        response_url: h.slack.responseUrl({ channel: 'C0OTHER', user: ALICE.id }),
        trigger_id: h.slack.triggerId(),
      }),
    );
    await h.settle();
    expect(h.ephemeralTexts().at(-1)).toContain('is open in another channel; run the command there');
    await h.slash('vessels dev --release hotfix');
    expect(h.ephemeralTexts().at(-1)).toContain('Usage');
    await h.slash('formation show dev lobby --release hotfix');
    expect(h.ephemeralTexts().at(-1)).toContain('`formation.show` only reads');
  });
});

describe('the release message', () => {
  it('“Add a change…” offers every change form the buttons do not; Delete vessel runs in the thread', async () => {
    const release = await startRelease(h, 'Season 8');
    expect([...addOptions(release).keys()]).toEqual([
      'Create vessel',
      'Delete vessel',
      'Create region',
      'Set region scheduling',
      'Scale armada',
      'Scale ArmadaSet',
      'Roll out armada',
      'Roll out ArmadaSet',
    ]);
    const preview = await viaSelect(
      h,
      release,
      'Delete vessel',
      { 'where.environment': 'dev' },
      { vessel: 'duel-1' },
    );
    expect(preview.text).toMatch(/^Confirm this destructive change: Delete vessel duel-1/);
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(h.sim.state.getVessel('dev', 'duel-1')).toBeUndefined();
    expect(shown(current(h, release))).toContain('Steps done (1)');
  });
});

describe('ending a release whose changes still wait', () => {
  /** A release with one change waiting for its requester's Confirm; returns the release and the change's preview. */
  async function withWaiting(): Promise<{ release: StoredMessage; preview: StoredMessage }> {
    const release = await startRelease(h, 'Season 8');
    await h.slash('vessel delete dev duel-1');
    return { release, preview: latestPreview(h, release) };
  }

  it('names them and asks; “Keep them and end” ends it and leaves them waiting', async () => {
    const { release, preview } = await withWaiting();
    await h.click(current(h, release), RELEASE_END_ACTION);
    const question = lastEphemeral();
    expect(question.text).toContain('1 change of release *Season 8* still waits');
    expect(shown(question)).toContain('Delete vessel duel-1');
    expect(shown(question)).toContain('waits for its requester to confirm');
    expect(buttonIds(question)).toEqual([RELEASE_END_CHOICE_ACTIONS.cancel, RELEASE_END_CHOICE_ACTIONS.keep]);
    expect(buttons(question).map((b) => (b as { text?: { text: string } }).text?.text)).toEqual([
      'Cancel it and end',
      'Keep it and end',
    ]);
    // Nothing ended yet.
    expect(buttonIds(current(h, release))).toContain(RELEASE_END_ACTION);

    await clickEphemeral(h, question, RELEASE_END_CHOICE_ACTIONS.keep, ALICE);
    expect(h.ephemeralTexts().at(-1)).toMatch(/^Ended release \*Season 8\*.*Kept \*.*Delete vessel duel-1/s);
    expect(buttonIds(current(h, release))).toEqual([]);
    // The change still waits, with its buttons, and can still be confirmed.
    expect(buttonIds(current(h, preview))).toContain(CHANGE_ACTIONS.confirm);
    await h.click(current(h, preview), CHANGE_ACTIONS.confirm);
    expect(current(h, preview).text).toMatch(/^Done/);
  });

  it('“Cancel them and end” cancels them once, even when clicked twice; `release end` asks the same', async () => {
    const { release, preview } = await withWaiting();
    await h.slash('release end Season 8');
    const question = lastEphemeral();
    expect(question.text).toContain('still waits');
    await clickEphemeral(h, question, RELEASE_END_CHOICE_ACTIONS.cancel, ALICE);
    expect(h.ephemeralTexts().at(-1)).toMatch(
      /^Ended release \*Season 8\*.*Cancelled \*.*Delete vessel duel-1/s,
    );
    const cancelled = current(h, preview);
    expect(buttonIds(cancelled)).toEqual([]);
    expect(shown(cancelled)).toMatch(/[Cc]ancelled/);
    const summary = thread(h, release).find((m) => /^Release Season 8 ended after/.test(m.text ?? ''));
    expect(summary?.text).toContain('0 applied, 0 failed, 1 rejected or cancelled');

    // A double click (the question as it was) ends nothing twice and cancels nothing twice.
    await clickEphemeral(h, question, RELEASE_END_CHOICE_ACTIONS.cancel, ALICE);
    expect(h.ephemeralTexts().at(-1)).toBe('The release “Season 8” has already ended.');
    const audit = await h.running.core.store.queryAudit({ actions: ['cancel'] });
    expect(audit).toHaveLength(1);
    expect(
      h.slack
        .thread(TEST_CHANNEL.id, release.ts)
        .filter((m) => /^Release Season 8 ended after/.test(m.text ?? '')),
    ).toHaveLength(1);
  });

  it('a change that started waiting after the question is asked about again, not decided for', async () => {
    const { release } = await withWaiting();
    await h.click(current(h, release), RELEASE_END_ACTION);
    const question = lastEphemeral();
    await h.slash('formation remove dev lobby lobby-1');
    await clickEphemeral(h, question, RELEASE_END_CHOICE_ACTIONS.cancel, ALICE);
    const again = lastEphemeral();
    expect(again.text).toContain('2 changes of release *Season 8* still wait');
    expect(shown(again)).toContain('Remove vessel lobby-1');
    expect(buttonIds(current(h, release))).toContain(RELEASE_END_ACTION);
    expect((await h.running.core.store.listChanges({ status: ['cancelled'] })).length).toBe(0);
  });

  it('someone the policy will not let cancel a change still ends the release; the answer says which change still waits and why', async () => {
    const { release, preview } = await withWaiting();
    await h.slash('release end Season 8', BOB);
    const question = h.slack
      .ephemerals()
      .filter((e) => e.user === BOB.id)
      .at(-1) as EphemeralMessage;
    await clickEphemeral(h, question, RELEASE_END_CHOICE_ACTIONS.cancel, BOB);
    const answer = h.ephemeralTexts(BOB).at(-1) ?? '';
    expect(answer).toMatch(/^Ended release \*Season 8\*/);
    expect(answer).toContain('Could not cancel');
    expect(answer).toContain('Only the person who requested this change');
    expect(answer).toContain('it still waits in the thread');
    expect(buttonIds(current(h, release))).toEqual([]);
    expect(buttonIds(current(h, preview))).toContain(CHANGE_ACTIONS.confirm);
  });
});
