/**
 * Issue 13, "Links": the approvals list links each change to its message, and
 * a release message links its changes (messages in its thread), so nobody
 * has to scroll to find what they are approving.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { RELEASE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, current, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const link = (ts: string) => `https://slack.com/archives/${TEST_CHANNEL.id}/p${ts.replace('.', '')}`;

it('the approvals list links each change to its message', async () => {
  await h.slash('promote game-server:1.2.0 from dev to prod');
  const prod = h.lastMessage();
  await h.slash('approvals', BOB);
  const list = h.slack
    .ephemerals()
    .filter((e) => e.user === BOB.id)
    .at(-1);
  expect(shown(list)).toContain(`*<${link(prod.ts)}|Promote game-server:1.2.0 from dev to prod>*`);
});

it('a release message links its changes, in its thread', async () => {
  await h.slash('release start Season 6');
  const release = h.lastMessage();
  await h.click(release, RELEASE_ACTIONS.promote);
  const viewId = openedViewId(h);
  const view = h.slack.view(viewId);
  if (!view) throw new Error('no modal');
  await h.submit(viewId, answers(view, { image: 'game-server:1.2.0', targetBranch: 'prod' }));
  const preview = h.slack.thread(TEST_CHANNEL.id, release.ts).find((m) => /^Waiting/.test(m.text));
  if (!preview) throw new Error('no preview in the thread');
  expect(shown(current(h, release))).toContain(
    `<${link(preview.ts)}?thread_ts=${release.ts}&cid=${TEST_CHANNEL.id}|Promote game-server:1.2.0 from dev to prod>`,
  );
});
