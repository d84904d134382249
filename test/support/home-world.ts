/**
 * Home tabs under traffic (issue 30.4), shared by the e2e test and the bench:
 * `tabs` people open their Home tab, then one command arrives every
 * `everyMs` for `forMs`, on a clock the test moves. Slack's stand-in enforces
 * Tier 4 for views.publish on the same clock. Returns every call Slack saw,
 * so callers count them per method and minute.
 */
import { ManualClock } from '../../src/runtime/clock.js';
import { appHomeOpenedBody, postSigned } from '../../src/workspace/signing.js';
import type { RecordedCall } from '../../src/workspace/stand-in.js';
import {
  ALICE,
  BOB,
  type BotHarness,
  CAROL,
  SIGNING_SECRET,
  slashBody,
  startBotHarness,
} from '../e2e/slack/bot-harness.js';

export interface HomeRun {
  h: BotHarness;
  clock: ManualClock;
  /** The people with their Home tab open. */
  viewers: string[];
  /** Clock time of the last command's arrival. */
  lastCommandAt: number;
  stop(): Promise<void>;
}

/** Views.publish calls Slack takes a minute for a workspace (Tier 4 is "100+"). */
export const TIER4_PER_MINUTE = 100;

/**
 * Lets I/O run, then moves the clock `ms` in steps of `stepMs`, never while a Web API call of
 * the bot is under way: Slack records each call at the clock time it was made (a call sent just
 * before a 429 landed is not recorded as if made inside the pause it was sent before).
 */
async function pump(h: BotHarness, clock: ManualClock, ms: number, stepMs = 100): Promise<void> {
  for (let moved = 0; moved < ms; moved += stepMs) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    await h.slackCallsDone();
    await clock.advance(Math.min(stepMs, ms - moved));
  }
}

/** Moves the clock until the bot is idle (every Home redraw drawn), at most `maxMs`. */
export async function drain(run: Pick<HomeRun, 'h' | 'clock'>, maxMs = 120_000): Promise<void> {
  let idle = false;
  void run.h.settle().then(() => {
    idle = true;
  });
  for (let moved = 0; !idle && moved < maxMs; moved += 500) await pump(run.h, run.clock, 500);
  if (!idle) throw new Error('the bot did not settle');
}

/** Opens `tabs` Home tabs, then sends `command` every `everyMs` for `forMs` of clock time. */
export async function homeTraffic(o: {
  tabs: number;
  everyMs: number;
  forMs: number;
  command: string;
}): Promise<HomeRun> {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0));
  const h = await startBotHarness({ clock, slackClock: clock });
  h.slack.enforceLimits({ clock, perMinute: { 'views.publish': TIER4_PER_MINUTE } });
  // Something waits for the SRE group's approval, so every Home draw asks who is in the group.
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  const others = Array.from(
    { length: Math.max(0, o.tabs - 3) },
    (_, i) => `U0VIEW${String(i).padStart(2, '0')}`,
  );
  const viewers = [ALICE.id, BOB.id, CAROL.id, ...others].slice(0, o.tabs);
  for (const user of viewers) {
    await postSigned(h.eventsUrl, SIGNING_SECRET, appHomeOpenedBody(user, 'home'), {
      contentType: 'application/json',
    });
  }
  await drain({ h, clock });
  let lastCommandAt = clock.now();
  for (let at = 0; at < o.forMs; at += o.everyMs) {
    lastCommandAt = clock.now();
    await postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, o.command, ALICE));
    await pump(h, clock, o.everyMs);
  }
  return { h, clock, viewers, lastCommandAt, stop: () => h.stop() };
}

/** Calls of each method in the busiest minute (sliding, by call time) from `from`. */
export function busiestMinuteByMethod(calls: readonly RecordedCall[], from: number): Record<string, number> {
  const byMethod = new Map<string, number[]>();
  for (const c of calls) {
    if (c.at < from) continue;
    byMethod.set(c.method, [...(byMethod.get(c.method) ?? []), c.at]);
  }
  const out: Record<string, number> = {};
  for (const [method, times] of byMethod) {
    times.sort((a, b) => a - b);
    let best = 0;
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= 60_000) start++;
      best = Math.max(best, end - start + 1);
    }
    out[method] = best;
  }
  return out;
}
