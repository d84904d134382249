import { describe, expect, it } from '@jest/globals';
import { parseDuration } from '../../src/policy/duration.js';

describe('parseDuration', () => {
  it.each([
    ['30m', 30 * 60_000],
    ['2h', 2 * 3_600_000],
    ['1d', 86_400_000],
    [' 45m ', 45 * 60_000],
    ['30d', 30 * 86_400_000],
    ['90s', 90_000],
  ])('%s -> %d ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ms });
  });

  it.each([
    ['30', 'expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "30"'],
    ['2w', 'expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "2w"'],
    ['1.5h', 'expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "1.5h"'],
    ['-1h', 'expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "-1h"'],
    ['', 'expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got ""'],
    ['0m', 'expected a duration longer than zero, got "0m"'],
    ['31d', 'expected at most 30d, got "31d"'],
  ])('%j is refused', (text, problem) => {
    expect(parseDuration(text)).toEqual({ problem });
  });
});
