/**
 * Instants are written in UTC and spans as fixed lengths whatever the
 * process's TZ: the bot may run on a server set to any zone, and a reader must
 * see the same words from every one. The zones are switched in a child
 * process, as jest's sandbox can not change the zone of its own.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { fixtureScript } from '../support/fixture-script.js';

// 01:30Z on a winter day; 01:30Z on 2026-03-29, half an hour after Europe's clocks
// went forward (the old stale-message formatter, shifting by the local offset, wrote "00:30" there under Berlin);
// a New Year's Eve minute that is already the next year east of UTC.
const INSTANTS = [
  Date.UTC(2026, 0, 1, 1, 30),
  Date.UTC(2026, 2, 29, 1, 30),
  Date.UTC(2025, 11, 31, 23, 59, 59),
];
const ZONES = {
  UTC: 1,
  'Europe/Berlin': 2,
  'America/Los_Angeles': 17,
  'Pacific/Kiritimati': 15,
  'Asia/Kolkata': 7,
};

const slackToken = (ms: number, fallback: string) =>
  `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;

describe('written instants and spans', () => {
  it('do not depend on the TZ the process runs in', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [fixtureScript('test/format/print-in-zones.ts'), INSTANTS.join(','), ...Object.keys(ZONES)],
      { env: { PATH: process.env.PATH } },
    );
    const written = JSON.parse(stdout) as Record<string, unknown>;
    const utc = ['2026-01-01 01:30 UTC', '2026-03-29 01:30 UTC', '2025-12-31 23:59 UTC'];
    for (const [zone, localHour] of Object.entries(ZONES)) {
      expect({ zone, ...(written[zone] as object) }).toEqual({
        zone,
        localHour,
        utc,
        slack: INSTANTS.map((ms, i) => slackToken(ms, utc[i] ?? '')),
        spans: INSTANTS.map(() => ['3 d 2 h', 'in 5 days', '1d']),
      });
    }
  });
});
