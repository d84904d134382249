/**
 * Durations in a policy file (request lifetimes) and in commands (`/harbor
 * freeze prod for 2h`) are written as `90s`, `30m`, `2h` or `1d`: one whole
 * number and one unit, so a reader never has to guess what `90` means.
 */

const UNITS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type Unit = keyof typeof UNITS;

/** Longest duration; beyond this a typo (`300d`) is more likely than intent. */
const MAX_DURATION_MS = 30 * UNITS.d;

/** What a duration looks like, for problems: every message names the same forms. */
export const DURATION_FORMS = '90s, 30m, 2h or 1d (seconds, minutes, hours or days)';

/** Parses `90s`, `30m`, `2h` or `1d` into milliseconds; returns the problem as a string when it is not one. */
export function parseDuration(text: string): { ms: number } | { problem: string } {
  const match = /^(\d+)\s*([smhd])$/.exec(text.trim());
  if (!match) {
    return { problem: `expected a duration like ${DURATION_FORMS}, got ${JSON.stringify(text)}` };
  }
  const [, amount, unit] = match as unknown as [string, string, Unit];
  const ms = Number(amount) * UNITS[unit];
  if (ms <= 0) return { problem: `expected a duration longer than zero, got ${JSON.stringify(text)}` };
  if (ms > MAX_DURATION_MS) return { problem: `expected at most 30d, got ${JSON.stringify(text)}` };
  return { ms };
}
