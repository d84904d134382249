/**
 * Issue 18, point 5: promoting an image:tag the target already holds with the
 * same digest says it is already there and stops, as region scheduling does
 * with "nothing to change": no preview, no approval asked of anyone.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

describe('a promotion of what the target already has', () => {
  it('stops with "already there" and pages nobody', async () => {
    h = await startBotHarness();
    const before = h.slack.channelMessages(TEST_CHANNEL.id).length;
    // The demo world has game-server:1.0.0 in dev and in prod, the same bytes.
    await h.slash('promote game-server:1.0.0 from dev to prod', ALICE);
    const answer = h.ephemeralTexts(ALICE).at(-1) ?? '';
    expect(answer).toMatch(
      /^game-server:1\.0\.0 is already in prod \(the same build\); nothing to change\.$/,
    );
    expect(h.slack.channelMessages(TEST_CHANNEL.id)).toHaveLength(before);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('still previews an image the target lacks', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
    expect(h.lastMessage().text).toMatch(/game-server:1\.2\.0/);
  });
});
