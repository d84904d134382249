/**
 * Home tabs under traffic (issue 30.4): `--tabs` people have their Home tab
 * open and a command arrives every `--every-ms` for `--minutes`, on a clock
 * the bench moves (the whole bot, the simulator and the Slack stand-in in
 * this process; the stand-in enforces Tier 4 for views.publish). Prints the
 * Slack calls of each method in the busiest minute, and how late the last
 * tab was redrawn after the last command.
 * Run: npx tsx bench/home-redraws.ts [--tabs 27] [--every-ms 2000] [--minutes 1]
 */
import { parseArgs } from 'node:util';
import { busiestMinuteByMethod, drain, homeTraffic } from '../test/support/home-world.js';

const { values } = parseArgs({
  options: {
    tabs: { type: 'string', default: '27' },
    'every-ms': { type: 'string', default: '2000' },
    minutes: { type: 'string', default: '1' },
  },
});
const tabs = Number(values.tabs);
const everyMs = Number(values['every-ms']);
const forMs = Number(values.minutes) * 60_000;

const run = await homeTraffic({ tabs, everyMs, forMs, command: 'vessels dev' });
const from = run.lastCommandAt - forMs + everyMs;
await drain(run);
const calls = run.h.slack.calls.filter((c) => c.at >= from);
const busiest = busiestMinuteByMethod(calls, from);
const lastRedraw = Math.max(
  ...run.viewers.map((u) =>
    Math.max(
      0,
      ...calls.filter((c) => c.method === 'views.publish' && c.body.user_id === u).map((c) => c.at),
    ),
  ),
);
console.log(
  `${tabs} Home tabs open, a command every ${everyMs} ms for ${forMs / 60_000} min (${Math.ceil(forMs / everyMs)} commands)`,
);
console.log('Slack calls in the busiest minute, by method:');
for (const [method, n] of Object.entries(busiest).sort((a, b) => b[1] - a[1])) {
  const limited = calls.filter((c) => c.method === method && c.status === 429).length;
  console.log(
    `  ${method.padEnd(24)} ${String(n).padStart(5)}${limited ? `  (${limited} answered 429)` : ''}`,
  );
}
console.log(
  `last Home tab redrawn ${((lastRedraw - run.lastCommandAt) / 1000).toFixed(1)} s after the last command`,
);
await run.stop();
