/**
 * Issue 30, point 8: a change typed while a release is open joins it, and
 * its preview goes into the release thread, maybe a screen above. The
 * command is still answered where it was typed, privately, naming the
 * release and linking to the preview in its thread.
 */
import { afterEach, expect, it } from '@jest/globals';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, openedViewId } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

it('a command that joins the open release is answered where it was typed, with a link to its preview', async () => {
  h = await startBotHarness();
  await h.slash('release start Season 4 launch', ALICE);
  const release = h.lastMessage();
  await h.slash('promote game-server:1.2.0 from dev to staging', ALICE);
  const preview = h.slack
    .channelMessages(TEST_CHANNEL.id)
    .find((m) => m.threadTs === release.ts && /game-server:1\.2\.0/.test(m.text ?? ''));
  if (!preview) throw new Error('no preview in the release thread');
  const told = h.ephemeralTexts(ALICE).at(-1) ?? '';
  expect(told).toMatch(
    /^Joined release \*Season 4 launch\*: its preview is in <[^|>]+\|the release thread>\./,
  );
  expect(told).toContain(preview.ts.replace('.', ''));
});

it('a command with `--no-release` posts in the channel and needs no such note', async () => {
  h = await startBotHarness();
  await h.slash('release start Season 4 launch', ALICE);
  const before = h.ephemeralTexts(ALICE).length;
  await h.slash('promote game-server:1.2.0 from dev to staging --no-release', ALICE);
  expect(h.ephemeralTexts(ALICE).slice(before)).toEqual([]);
});

it('a form that joins the open release is answered in the channel too, with a link to its preview', async () => {
  h = await startBotHarness();
  await h.slash('release start Season 4 launch', ALICE);
  await h.slash('promote', ALICE);
  const viewId = openedViewId(h);
  const view = h.slack.view(viewId);
  if (!view) throw new Error('no form');
  const res = await h.submit(viewId, answers(view, { image: 'game-server:1.2.0', targetBranch: 'staging' }));
  expect(res.body).toEqual({ response_action: 'clear' });
  const told = h.ephemeralTexts(ALICE).at(-1) ?? '';
  expect(told).toMatch(
    /^Joined release \*Season 4 launch\*: its preview is in <[^|>]+\|the release thread>\./,
  );
});
