/**
 * Recurring freeze windows (issue 41) in their own time zone, across both
 * daylight-saving changes of Europe/Berlin in 2026 (last Sunday of March:
 * 02:00 CET -> 03:00 CEST; last Sunday of October: 03:00 CEST -> 02:00 CET).
 * Instants are injected; nothing reads the process's clock or zone.
 */
import { describe, expect, it } from '@jest/globals';
import { freezesInForce, upcomingWindows } from '../../src/freezes/in-force.js';
import { nextOccurrence, occurrenceAt, scheduleText } from '../../src/freezes/windows.js';
import { parsePolicy } from '../../src/policy/index.js';
import type { FreezeWindow } from '../../src/policy/types.js';

const policy = parsePolicy(
  `
freezes:
  - name: weekend
    environments: [prod, 'live-*']
    days: [sat, sun]
    from: "16:00"
    to: "09:00"
    timezone: Europe/Berlin
    reason: weekend tournaments
  - name: nightly
    environments: prod
    days: [mon, tue, wed, thu, fri, sat, sun]
    from: "01:00"
    to: "04:00"
    timezone: Europe/Berlin
rules:
  - operations: ['*']
`,
  { resolveGroup: async () => [] },
);
const [weekend, nightly] = policy.freezeWindows as [FreezeWindow, FreezeWindow];
const utc = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

describe('freeze windows across daylight-saving changes (Europe/Berlin)', () => {
  it('March: Saturday 16:00 CET to Sunday 09:00 CEST is 16 h, not 17', () => {
    const o = occurrenceAt(weekend, utc('2026-03-28T15:00:00Z'));
    expect(o).toEqual({ start: utc('2026-03-28T15:00:00Z'), end: utc('2026-03-29T07:00:00Z') });
    expect((o?.end ?? 0) - (o?.start ?? 0)).toBe(16 * HOUR);
    expect(occurrenceAt(weekend, utc('2026-03-28T14:59:59Z'))).toBeUndefined();
    expect(occurrenceAt(weekend, utc('2026-03-29T06:59:59Z'))).toBeDefined();
    // 07:00 UTC is 09:00 CEST: over (a fixed +01:00 would have said 08:00 UTC).
    expect(occurrenceAt(weekend, utc('2026-03-29T07:00:00Z'))).toBeUndefined();
    // Sunday's own window starts at 16:00 CEST, 14:00 UTC.
    expect(occurrenceAt(weekend, utc('2026-03-29T14:00:00Z'))?.start).toBe(utc('2026-03-29T14:00:00Z'));
  });

  it('October: Saturday 16:00 CEST to Sunday 09:00 CET is 18 h', () => {
    const o = occurrenceAt(weekend, utc('2026-10-24T20:00:00Z'));
    expect(o).toEqual({ start: utc('2026-10-24T14:00:00Z'), end: utc('2026-10-25T08:00:00Z') });
    expect(occurrenceAt(weekend, utc('2026-10-25T07:59:00Z'))).toBeDefined();
    expect(occurrenceAt(weekend, utc('2026-10-25T08:00:00Z'))).toBeUndefined();
  });

  it('a window over the skipped and the repeated hour', () => {
    // 01:00-04:00 on the spring-forward night: 01:00 CET (00:00 UTC) to 04:00 CEST (02:00 UTC), two hours.
    expect(occurrenceAt(nightly, utc('2026-03-29T01:30:00Z'))).toEqual({
      start: utc('2026-03-29T00:00:00Z'),
      end: utc('2026-03-29T02:00:00Z'),
    });
    // On the fall-back night: 01:00 CEST (23:00 UTC) to 04:00 CET (03:00 UTC), four hours.
    expect(occurrenceAt(nightly, utc('2026-10-25T02:30:00Z'))).toEqual({
      start: utc('2026-10-24T23:00:00Z'),
      end: utc('2026-10-25T03:00:00Z'),
    });
  });

  it('`days` are the days a window starts on: Sunday night into Monday is frozen, Friday night is not', () => {
    // Monday 08:00 CEST belongs to Sunday's window.
    expect(occurrenceAt(weekend, utc('2026-03-30T06:00:00Z'))?.start).toBe(utc('2026-03-29T14:00:00Z'));
    // Friday 20:00: no window starts on Friday.
    expect(occurrenceAt(weekend, utc('2026-03-27T19:00:00Z'))).toBeUndefined();
  });

  it('the next occurrence is found across the change, and listed per environment', async () => {
    expect(nextOccurrence(weekend, utc('2026-03-27T12:00:00Z'))?.start).toBe(utc('2026-03-28T15:00:00Z'));
    expect(nextOccurrence(weekend, utc('2026-03-28T16:00:00Z'))?.start).toBe(utc('2026-03-29T14:00:00Z'));
    expect(scheduleText(weekend)).toBe('sat, sun 16:00-09:00 Europe/Berlin');
    const upcoming = upcomingWindows([weekend], ['prod', 'live-eu', 'dev'], utc('2026-03-27T12:00:00Z'));
    expect(upcoming.map((f) => [f.env, f.since])).toEqual([
      ['prod', utc('2026-03-28T15:00:00Z')],
      ['live-eu', utc('2026-03-28T15:00:00Z')],
    ]);
    const store = { listFreezes: async () => [] };
    const inForce = await freezesInForce(
      { store, windows: [weekend] },
      ['prod', 'dev'],
      utc('2026-03-28T18:00:00Z'),
    );
    expect(inForce).toEqual([
      {
        kind: 'window',
        name: 'weekend',
        env: 'prod',
        since: utc('2026-03-28T15:00:00Z'),
        until: utc('2026-03-29T07:00:00Z'),
        schedule: 'sat, sun 16:00-09:00 Europe/Berlin',
        reason: 'weekend tournaments',
      },
    ]);
  });
});
