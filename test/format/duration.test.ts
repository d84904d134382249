import { describe, expect, it } from '@jest/globals';
import { formatRelative, formatRoughSpan, formatShorthand, formatSpan } from '../../src/format/duration.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatSpan', () => {
  it.each([
    [0, '0 s'],
    [-5 * SECOND, '0 s'],
    [45 * SECOND, '45 s'],
    [59.4 * SECOND, '59 s'],
    [59.6 * SECOND, '1 min'],
    [12 * MINUTE, '12 min'],
    [120 * MINUTE, '2 h'],
    [125 * MINUTE, '2 h 5 min'],
    [47 * HOUR + 59 * MINUTE, '47 h 59 min'],
    [72 * HOUR, '3 d'],
    [76 * HOUR, '3 d 4 h'],
    [76 * HOUR + 40 * MINUTE, '3 d 4 h'],
    [40 * DAY, '40 d'],
  ])('%d ms -> %s', (ms, text) => {
    expect(formatSpan(ms)).toBe(text);
  });
});

describe('formatRoughSpan and formatRelative', () => {
  it.each([
    [20 * SECOND, 'less than a minute'],
    [14 * MINUTE, '14 min'],
    [119 * MINUTE, '119 min'],
    [3 * HOUR, '3 h'],
    [3 * HOUR + 31 * MINUTE, '4 h'],
    [2 * DAY, '2 days'],
    [30 * DAY, '30 days'],
  ])('%d ms -> %s', (ms, text) => {
    expect(formatRoughSpan(ms)).toBe(text);
    expect(formatRoughSpan(-ms)).toBe(text);
  });

  it('says which way the distance goes', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(formatRelative(now + 14 * MINUTE, now)).toBe('in 14 min');
    expect(formatRelative(now - 5 * MINUTE, now)).toBe('5 min ago');
    expect(formatRelative(now + 3 * HOUR, now)).toBe('in 3 h');
    expect(formatRelative(now + 20 * SECOND, now)).toBe('in less than a minute');
    expect(formatRelative(now, now)).toBe('in less than a minute');
  });
});

describe('formatShorthand', () => {
  it.each([
    [30 * MINUTE, '30m'],
    [90 * MINUTE, '90m'],
    [2 * HOUR, '2h'],
    [2 * DAY, '2d'],
    [1500, '2s'],
  ])('%d ms -> %s (the policy file notation)', (ms, text) => {
    expect(formatShorthand(ms)).toBe(text);
  });
});
