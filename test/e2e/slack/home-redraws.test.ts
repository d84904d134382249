/**
 * Issue 30, point 4: Home redraws within Slack's limits. With 27 Home tabs
 * open and a command every 2 s, every command redrew every tab: 810
 * views.publish in one minute and 150 usergroups.users.list. Now redraws
 * fold per person (newest state wins) and go through the workspace's
 * views.publish gate; each group is read once per redraw batch; a 429
 * pauses every Home redraw of the workspace. No tab is left behind: after
 * the lag each is redrawn after the last command.
 */
import { afterEach, expect, it } from '@jest/globals';
import { HOME_PUBLISHES_PER_MINUTE } from '../../../src/slack/home/listeners.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { busiestMinuteByMethod, drain, type HomeRun, homeTraffic } from '../../support/home-world.js';
import { ALICE, SIGNING_SECRET, slashBody } from './bot-harness.js';

let run: HomeRun | undefined;
afterEach(async () => {
  await run?.stop();
});

it('27 tabs and a command every 2 s: views.publish within the gate, groups read once per batch, no tab lost', async () => {
  run = await homeTraffic({ tabs: 27, everyMs: 2_000, forMs: 60_000, command: 'vessels dev' });
  const from = run.lastCommandAt - 60_000;
  await drain(run);
  const calls = run.h.slack.calls;
  const busiest = busiestMinuteByMethod(calls, from);
  // Gate: 90 a minute plus a burst of 5; Slack's Tier 4 (100) never answered 429.
  expect(busiest['views.publish']).toBeLessThanOrEqual(HOME_PUBLISHES_PER_MINUTE + 5);
  expect(calls.filter((c) => c.method === 'views.publish' && c.status === 429)).toEqual([]);
  // 30 commands make at most 30 batches: one group read each (was one per tab per batch).
  expect(busiest['usergroups.users.list'] ?? 0).toBeLessThanOrEqual(31);
  // Every tab was redrawn after the last command: late, never lost.
  const last = run.lastCommandAt;
  for (const user of run.viewers) {
    const published = calls.filter((c) => c.method === 'views.publish' && c.body.user_id === user);
    expect(published.at(-1)?.at ?? 0).toBeGreaterThanOrEqual(last);
  }
}, 120_000);

it('a 429 on views.publish pauses every Home redraw of the workspace until Retry-After', async () => {
  run = await homeTraffic({ tabs: 27, everyMs: 2_000, forMs: 2_000, command: 'vessels dev' });
  await drain(run);
  const { h } = run;
  h.slack.forceRateLimit('views.publish', { count: 1, retryAfterSeconds: 20 });
  const from = run.clock.now();
  await postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, 'vessels dev', ALICE));
  await drain(run);
  const limited = h.slack.rateLimited.filter((r) => r.method === 'views.publish');
  expect(limited).toHaveLength(1);
  const pausedAt = limited[0]?.at ?? 0;
  const publishes = h.slack.calls.filter((c) => c.method === 'views.publish' && c.at >= from);
  // Nobody's tab was published during the pause: one 429, then every tab once it ended.
  expect(publishes.filter((c) => c.status === 200 && c.at > pausedAt && c.at < pausedAt + 20_000)).toEqual(
    [],
  );
  for (const user of run.viewers) {
    expect(publishes.some((c) => c.body.user_id === user && c.status === 200)).toBe(true);
  }
}, 120_000);
