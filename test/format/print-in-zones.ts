/**
 * Run by time-zones.test.ts in a child process (jest's sandbox copies
 * process.env, so a test can not change the zone of its own process; a plain
 * Node process can, by setting TZ): for each zone named on the command line,
 * prints what the format module and its users write for fixed instants.
 */
import { formatRelative, formatShorthand, formatSpan } from '../../src/format/duration.js';
import { formatUtcMinute } from '../../src/format/time.js';
import { slackDate } from '../../src/slack/render/blocks.js';

const [instantList = '', ...zones] = process.argv.slice(2);
const instants = instantList.split(',').map(Number);
const DAY = 86_400_000;
const written: Record<string, unknown> = {};
for (const zone of zones) {
  process.env.TZ = zone;
  written[zone] = {
    // Proves the zone took effect: local hours differ between zones.
    localHour: new Date(instants[0] ?? Number.NaN).getHours(),
    utc: instants.map(formatUtcMinute),
    slack: instants.map(slackDate),
    spans: instants.map((at) => [
      formatSpan(3 * DAY + 7_200_000),
      formatRelative(at + 5 * DAY, at),
      formatShorthand(DAY),
    ]),
  };
}
console.log(JSON.stringify(written));
