/**
 * Issue 13, point 9: records do not go stale. "Done" says when it was applied
 * (a date token) and names each person once; "Failed" drops the preview's
 * fields, which described the world before the attempt; a click on an
 * expired change answers with a date token, not a fixed UTC string.
 * (The tail parent after Stop: tail-parent.test.ts.)
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { current, shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const dateToken = (ms: number) => `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|`;

describe('change records', () => {
  it('Done: applied-at as a date token, and the approver who applied it named once', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9, 0));
    h = await startBotHarness({ clock });
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const prod = h.lastMessage();
    await clock.advance(5 * 60_000);
    await h.click(prod, CHANGE_ACTIONS.approve, BOB);
    const done = shown(current(h, prod));
    expect(current(h, prod).text).toMatch(/^Done/);
    expect(done).toContain(`Applied ${dateToken(clock.now())}`);
    expect(done).toContain(`approved by <@${BOB.id}>`);
    expect(done).not.toContain('confirmed by');
  });

  it('Failed: the error, not the preview fields of the world before the attempt', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const prod = h.lastMessage();
    expect(shown(prod)).toContain('Already in prod');
    h.sim.setFaults([{ method: 'POST', path: '/api/container/v1/imagepromotions/**', status: 422 }]);
    await h.click(prod, CHANGE_ACTIONS.approve, BOB);
    const failed = current(h, prod);
    expect(failed.text).toMatch(/^Failed/);
    expect(shown(failed)).not.toContain('Already in prod');
    expect(shown(failed)).not.toContain('From branch');
    expect(shown(failed)).toContain('Failed <!date^');
  });

  it('a click on an expired change answers with a date token', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9, 0));
    h = await startBotHarness({ clock });
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const prod = h.lastMessage();
    const expiresAt = clock.now() + 30 * 60_000;
    await clock.advance(31 * 60_000);
    await h.click(prod, CHANGE_ACTIONS.approve, BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toBe(
      `This change expired ${dateToken(expiresAt)}2026-03-01 09:30 UTC> without being applied. Request it again if it is still needed.`,
    );
    expect(current(h, prod).text).toMatch(/^Expired/);
  });
});
