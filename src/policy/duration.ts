/**
 * Request lifetimes in a policy file are written as `30m`, `2h` or `1d`: one
 * whole number and one unit, so a reader never has to guess what `90` means.
 */

const UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type Unit = keyof typeof UNITS;

/** Longest lifetime a request may have; beyond this a typo (`300d`) is more likely than intent. */
const MAX_DURATION_MS = 30 * UNITS.d;

/** Parses `30m`, `2h` or `1d` into milliseconds; returns the problem as a string when it is not one. */
export function parseDuration(text: string): { ms: number } | { problem: string } {
  const match = /^(\d+)\s*([mhd])$/.exec(text.trim());
  if (!match) {
    return {
      problem: `expected a duration like 30m, 2h or 1d (minutes, hours or days), got ${JSON.stringify(text)}`,
    };
  }
  const [, amount, unit] = match as unknown as [string, string, Unit];
  const ms = Number(amount) * UNITS[unit];
  if (ms <= 0) return { problem: `expected a duration longer than zero, got ${JSON.stringify(text)}` };
  if (ms > MAX_DURATION_MS) return { problem: `expected at most 30d, got ${JSON.stringify(text)}` };
  return { ms };
}
