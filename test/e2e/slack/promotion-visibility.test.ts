/**
 * Issue 18, point 6: a promotion the API accepted but whose copy the target
 * branch does not list yet is not "Done". It shows "Requested, not yet
 * visible"; housekeeping keeps looking, redraws it as Promoted when the copy
 * shows, and says plainly that it never appeared after the settle window.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { current, shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

// prod lists no images at all while this fault holds: the copy never "shows".
const HIDE_PROD_IMAGES = [{ method: 'GET', path: '/api/container/v1/images/scopes/prod', status: 404 }];

const PROMOTIONS = '/api/container/v1/imagepromotions/scopes/prod';

/** Approves the promotion in `message` while prod hides its images, letting apply's bounded wait run out. */
async function approveUnseen(clock: ManualClock, message: StoredMessage): Promise<void> {
  h.sim.setFaults(HIDE_PROD_IMAGES);
  let finished = false;
  const posted = h.sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith(PROMOTIONS)).length;
  const click = h.click(message, CHANGE_ACTIONS.approve, BOB).finally(() => {
    finished = true;
  });
  // The clock moves only once the apply has posted the promotion: before that the click is acked,
  // routed and approved on real timers (the ack watch's settle), and a clock moved meanwhile would
  // let the request expire (30 minutes) before the approval is read.
  await Promise.race([click, h.sim.whenRequests('POST', PROMOTIONS, posted + 1)]);
  while (!finished) {
    await Promise.race([click, clock.whenSleeping(1)]);
    if (!finished) await clock.advance(1000);
    // Other sleepers (lease heartbeats) wait too: let HTTP in flight progress between steps.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await click;
}

describe('a promotion not yet visible in its target', () => {
  it('says so instead of Done, and becomes Promoted when housekeeping sees the copy', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9, 0));
    h = await startBotHarness({ clock });
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const prod = h.lastMessage();
    await approveUnseen(clock, prod);
    expect(current(h, prod).text).toMatch(/^Requested, not yet visible: /);
    expect(shown(current(h, prod))).not.toMatch(/\bDone\b/);

    h.sim.setFaults([]);
    await h.running.core.housekeepNow();
    expect(current(h, prod).text).toBe('Done: Promoted game-server:1.2.0 from dev to prod');
  });

  it('says plainly that it never appeared once the settle window has passed', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9, 0));
    h = await startBotHarness({ clock });
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const prod = h.lastMessage();
    await approveUnseen(clock, prod);
    await h.running.core.housekeepNow();
    expect(current(h, prod).text).toMatch(/^Requested, not yet visible: /);

    await clock.advance(31 * 60_000);
    await h.running.core.housekeepNow();
    expect(current(h, prod).text).toBe(
      'Never appeared: Promotion of game-server:1.2.0 from dev to prod never appeared in prod',
    );
    expect(shown(current(h, prod))).toContain(
      'game-server:1.2.0 was still not seen in prod 30 minutes later',
    );
  });
});
