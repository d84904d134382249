/**
 * A release thread's "Tail logs" modal end to end (src/slack/releases/tail-modal.ts):
 * the where step, then a vessel; a good submission acks "Starting…" and the
 * modal then says the tail started in the release thread, which lists it;
 * a missing vessel is an inline field error; a release that ended meanwhile
 * is said in the modal and nothing starts. Also the modal check's own
 * failure path: a submission the check cannot read is acked (the modal
 * closes) and the user is told privately, without a stack trace.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MODAL_CALLBACKS, RELEASE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { viewSubmissionPayload } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, current, get, openedViewId, shown, viewOf } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Starts a release, presses its "Tail logs" button and picks environment `dev`; returns the release and the view id. */
async function tailModal(): Promise<{ release: StoredMessage; releaseId: string; viewId: string }> {
  await h.slash('release start Season 6');
  const release = h.lastMessage();
  const releaseId = (release.blocks as { elements?: { value?: string }[] }[])
    .flatMap((b) => b.elements ?? [])
    .find((e) => e.value?.startsWith('rel-'))?.value as string;
  await h.click(release, RELEASE_ACTIONS.tailLogs);
  const viewId = openedViewId(h);
  const next = await h.submit(viewId, answers(viewOf(h, viewId), { 'where.environment': 'dev' }));
  expect(next.body).toMatchObject({ response_action: 'update' });
  expect(shown(viewOf(h, viewId))).toContain("Follows a vessel's logs in *dev*");
  return { release, releaseId, viewId };
}

/** The `harbor_errors_total` sample for `where`, 0 when absent. */
async function errorsCounted(where: string): Promise<number> {
  const metrics = await get(h, '/metrics');
  const line = metrics.text
    .split('\n')
    .find((l) => l.startsWith('harbor_errors_total{') && l.includes(`"${where}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('the release "Tail logs" modal', () => {
  it('starts a live tail in the release thread and says so in the modal; the release lists it', async () => {
    const { release, releaseId, viewId } = await tailModal();
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), { 'where.environment': 'dev', vessel: 'lobby-1' }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(res.body)).toContain('Checking the vessel');

    const outcome = viewOf(h, viewId);
    expect(JSON.stringify(outcome)).toContain('Tail started');
    expect(shown(outcome)).toContain('Following *lobby-1* in the release thread');
    const tails = await h.running.core.store.listTails({ releaseId, status: 'active' });
    expect(tails).toHaveLength(1);
    expect(tails[0]).toMatchObject({
      env: 'dev',
      vessel: 'lobby-1',
      threadTs: release.ts,
      startedBy: ALICE.id,
    });
    expect(shown(current(h, release))).toContain('Live tails (1)');
  });

  it('asks for a vessel inline when none is chosen, and starts nothing', async () => {
    const { releaseId, viewId } = await tailModal();
    const res = await h.submit(viewId, answers(viewOf(h, viewId), { 'where.environment': 'dev' }));
    expect(res.body).toMatchObject({ response_action: 'errors' });
    expect(JSON.stringify((res.body as { errors: object }).errors)).toContain('Choose a vessel');
    expect(await h.running.core.store.listTails({ releaseId })).toEqual([]);
  });

  it('says in the modal that the release ended meanwhile, starts nothing and counts the failure', async () => {
    const { releaseId, viewId } = await tailModal();
    const before = await errorsCounted('tail-submit');
    await h.slash('release end Season 6');
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), { 'where.environment': 'dev', vessel: 'lobby-1' }),
    );
    expect(res.body).toMatchObject({ response_action: 'update' });

    const outcome = JSON.stringify(viewOf(h, viewId));
    expect(outcome).toContain('Could not start');
    expect(outcome).toContain('The release “Season 6” has ended; start a new one for more work.');
    expect(outcome).not.toMatch(/\bat .*\.ts:\d+/);
    expect(await h.running.core.store.listTails({ releaseId })).toEqual([]);
    expect(await errorsCounted('tail-submit')).toBe(before + 1);
  });
});

describe('a submission the modal check cannot read', () => {
  it('is acked without a view, and the user is told privately that it failed (no stack trace)', async () => {
    await h.slash('promote');
    const viewId = openedViewId(h);
    const view = viewOf(h, viewId);
    expect(view.callback_id).toBe(MODAL_CALLBACKS.promote);
    // A malformed payload: a text value that is not a string (Slack never sends it; a check must not hang on it).
    const typed = answers(view, { targetBranch: 'prod' });
    const blockValues = Object.values(typed.targetBranch ?? {})[0] as {
      selected_option?: { value: unknown };
    };
    if (blockValues.selected_option) blockValues.selected_option.value = 5;
    const res = await h.interact(viewSubmissionPayload({ view, values: typed as never, user: ALICE }));
    expect(res.status).toBe(200);
    expect(res.body ?? '').toEqual('');

    const told = h.slack.ephemerals().filter((e) => e.user === ALICE.id && e.channel === TEST_CHANNEL.id);
    const last = told.at(-1);
    const id = last?.text?.match(/internal error \(id ([0-9a-f]+)\)\. The bot's log has the details/)?.[1];
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(shown(last)).not.toMatch(/\bat .*\.ts:\d+|TypeError/);
    // The log keeps what the user was spared, under the id they were given.
    expect(h.logs.lines.filter((l) => l.includes(id as string)).join('\n')).toContain('TypeError');
    expect(await errorsCounted('submit promote')).toBe(1);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});
