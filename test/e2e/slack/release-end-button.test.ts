/** Issue 13: a release can be ended by a button on its message, behind a dialog, as `release end` would. */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { RELEASE_END_ACTION } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, buttons, current } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

it('End release ends it: summary in the thread, no buttons left, the clicker told; a second click says so', async () => {
  await h.slash('release start Season 7');
  const release = h.lastMessage();
  const end = buttons(release).find((b) => b.action_id === RELEASE_END_ACTION);
  expect(end?.confirm?.style).toBe('danger');
  expect(end?.confirm?.title?.text).toBe('End release Season 7?');

  // A client that has not redrawn the message yet still shows the button.
  const stale = structuredClone(release);
  await h.click(release, RELEASE_END_ACTION, BOB);
  const ended = current(h, release);
  expect(ended.text).toMatch(/^Release ended: Season 7/);
  expect(buttonIds(ended)).toEqual([]);
  expect(h.slack.thread(TEST_CHANNEL.id, release.ts).map((m) => m.text)).toContainEqual(
    expect.stringMatching(/^Release Season 7 ended after/),
  );
  expect(h.ephemeralTexts(BOB).at(-1)).toMatch(/^Ended release \*Season 7\*/);
  const [record] = await h.running.core.store.listReleases({});
  expect(record).toMatchObject({ status: 'ended' });

  await h.click(stale, RELEASE_END_ACTION, BOB);
  expect(h.ephemeralTexts(BOB).at(-1)).toBe('The release “Season 7” has already ended.');
});
