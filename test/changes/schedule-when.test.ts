/** Reading `--at` times (changes/schedule/when.ts) against an injected now: every accepted form, DST, and refusals. */
import { describe, expect, it } from '@jest/globals';
import { parseWhen } from '../../src/changes/schedule/when.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const read = (text: string, now: number, maxDays = 30) => parseWhen(text, now, maxDays * DAY);
const at = (text: string, now: number) => {
  const r = read(text, now);
  if ('problem' in r) throw new Error(r.problem);
  return iso(r.at);
};

describe('parseWhen', () => {
  const now = Date.UTC(2026, 10, 28, 22, 0); // Saturday 2026-11-28 22:00 UTC (23:00 in Berlin)

  it('reads ISO 8601 with an offset, with or without seconds', () => {
    expect(at('2026-12-01T18:00+01:00', now)).toBe('2026-12-01T17:00:00.000Z');
    expect(at('2026-12-01T18:00:30Z', now)).toBe('2026-12-01T18:00:30.000Z');
  });

  it('reads a delay as the policy writes durations', () => {
    expect(at('in 2h', now)).toBe('2026-11-29T00:00:00.000Z');
    expect(at('in 90s', now)).toBe('2026-11-28T22:01:30.000Z');
    expect(at('IN 1d', now)).toBe('2026-11-29T22:00:00.000Z');
  });

  it('reads a wall time in a zone as the next one there', () => {
    // 23:00 in Berlin now: 18:00 has passed today, so tomorrow's (CET, UTC+1).
    expect(at('18:00 Europe/Berlin', now)).toBe('2026-11-29T17:00:00.000Z');
    // 23:30 Berlin is still ahead today.
    expect(at('23:30 Europe/Berlin', now)).toBe('2026-11-28T22:30:00.000Z');
    expect(at('06:15:30 UTC', now)).toBe('2026-11-29T06:15:30.000Z');
  });

  it('holds across daylight-saving changes (no hand-written offsets)', () => {
    // Berlin springs forward on 2026-03-29: 18:00 the day before is CET, that day CEST.
    const before = Date.UTC(2026, 2, 28, 12, 0);
    expect(at('18:00 Europe/Berlin', before)).toBe('2026-03-28T17:00:00.000Z');
    const after = Date.UTC(2026, 2, 28, 20, 0);
    expect(at('18:00 Europe/Berlin', after)).toBe('2026-03-29T16:00:00.000Z');
    // New York falls back on 2026-11-01.
    expect(at('09:00 America/New_York', Date.UTC(2026, 9, 31, 20, 0))).toBe('2026-11-01T14:00:00.000Z');
  });

  it('refuses a time in the past', () => {
    const r = read('2026-11-28T21:00Z', now);
    expect(r).toEqual({ problem: expect.stringContaining('`2026-11-28T21:00Z` is in the past;') });
  });

  it('refuses a time further ahead than allowed', () => {
    expect(read('in 10d', now, 7)).toEqual({ problem: expect.stringContaining('more than the 7 days') });
    expect('at' in read('in 10d', now, 30)).toBe(true);
  });

  it('refuses what it cannot read, always with the accepted forms', () => {
    for (const [text, words] of [
      ['', 'The time is empty.'],
      ['tomorrow', 'is not a time I can read'],
      ['2026-12-01T18:00', 'ISO 8601 with an offset'],
      ['2026-02-30T18:00Z', 'not a real date'],
      ['25:00 Europe/Berlin', 'not a time of day'],
      ['18:00 Mars/Olympus', 'not a time zone this runtime knows'],
      ['in soon', 'not a delay I can read'],
    ] as const) {
      const r = read(text, now);
      expect('problem' in r && r.problem).toContain(words);
      expect('problem' in r && r.problem).toContain('`in 2h`');
    }
  });
});
