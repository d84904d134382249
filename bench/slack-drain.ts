/**
 * Commands during a chat.update drain (issue 30.10): `--clicks` Confirm
 * clicks whose message rewrites all wait for the workspace's chat.update
 * pace (its gate in the store booked ten minutes ahead, as after a burst),
 * which is more clicks than the bot has work slots; then `--commands`
 * commands that need no chat.update. Prints how many commands were answered
 * (and how fast) and how many were refused "busy" while the rewrites still
 * waited. The whole bot, the simulator and the Slack stand-in in this
 * process; the bot's clock stands still, so the drain lasts the whole run.
 * Run: npx tsx bench/slack-drain.ts [--clicks 40] [--commands 200]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ManualClock } from '../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../src/slack/ids.js';
import { TEST_TEAM } from '../src/workspace/identity.js';
import { postSigned } from '../src/workspace/signing.js';
import type { StoredMessage } from '../src/workspace/stand-in.js';
import {
  ALICE,
  clickBody,
  SIGNING_SECRET,
  slashBody,
  startBotHarness,
} from '../test/e2e/slack/bot-harness.js';

const { values } = parseArgs({
  options: { clicks: { type: 'string', default: '40' }, commands: { type: 'string', default: '200' } },
});
const clicks = Number(values.clicks);
const commands = Number(values.commands);

const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0));
const h = await startBotHarness({ clock });
const previews: StoredMessage[] = [];
for (let i = 0; i < clicks; i++) {
  // A post a second in a channel: the clock moves on so the previews are not held by their own pace.
  const body = slashBody(h.slack, `promote game-server:1.${i % 2 ? 1 : 2}.0 from dev to staging`, ALICE);
  await postSigned(h.eventsUrl, SIGNING_SECRET, body);
  let settled = false;
  void h.settle().then(() => {
    settled = true;
  });
  while (!settled) {
    await new Promise((r) => setTimeout(r, 5));
    await clock.advance(500);
  }
  previews.push(h.lastMessage());
}
await h.running.core.store.holdSlots(`${TEST_TEAM.id}:chat.update`, clock.now() + 10 * 60_000);
await Promise.all(
  previews.map((p) =>
    postSigned(h.eventsUrl, SIGNING_SECRET, clickBody(h.slack, p, CHANGE_ACTIONS.confirm, ALICE)),
  ),
);
// Every click's rewrite waits in the Slack gateway's queue for a chat.update slot.
while (h.running.slackBudget.waiting() < clicks) await new Promise((r) => setTimeout(r, 5));
const waitingRewrites = h.running.slackBudget.waiting();

const started = performance.now();
let busy = 0;
const times: number[] = [];
const answeredBefore = () =>
  h.slack.calls.filter(
    (c) => c.method === 'response_url' && /vessels in environment/.test(JSON.stringify(c.body)),
  ).length;
const base = answeredBefore();
await Promise.all(
  Array.from({ length: commands }, async () => {
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, 'vessels dev', ALICE));
    if (/busy/.test(JSON.stringify(res.body ?? ''))) busy += 1;
  }),
);
const deadline = performance.now() + 20_000;
let seen = base;
while (performance.now() < deadline && answeredBefore() - base + busy < commands) {
  const now = answeredBefore();
  for (; seen < now; seen++) times.push(performance.now() - started);
  await new Promise((r) => setTimeout(r, 10));
}
for (let now = answeredBefore(); seen < now; seen++) times.push(performance.now() - started);
times.sort((a, b) => a - b);
const pct = (p: number) =>
  (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0).toFixed(0);
console.log(
  `${clicks} Confirm clicks waiting for chat.update (${waitingRewrites} rewrites waiting in the gateway), then ${commands} commands:`,
);
console.log(
  `  answered ${answeredBefore() - base}, busy ${busy}; answer times p50 ${pct(50)} ms, p99 ${pct(99)} ms (rewrites still waiting: ${h.running.slackBudget.waiting()})`,
);
for (let i = 0; i < 20; i++) await clock.advance(60_000);
await h.stop();
