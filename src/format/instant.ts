/**
 * Reading an instant people type: ISO 8601 with a date, a time to the minute
 * or the second, and an offset (`2026-12-01T18:00+01:00`, `2026-12-01T18:00:30Z`).
 * The offset is required: a time without one means a different instant to
 * each reader and to each replica. Dates that do not exist (February 30) are
 * refused rather than rolled over, as Date.parse would.
 */

/** Examples of what `parseInstant` accepts, for problems. */
export const INSTANT_EXAMPLES = '`2026-12-01T18:00+01:00` or `2026-12-01T18:00:30Z`';

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})$/i;

/** The epoch ms of an ISO 8601 instant with an offset, or the problem in words. */
export function parseInstant(text: string): { ms: number } | { problem: string } {
  const bad = {
    problem: `expected a time in ISO 8601 with an offset, like ${INSTANT_EXAMPLES}; got ${JSON.stringify(text)}`,
  };
  const m = ISO.exec(text.trim());
  if (!m) return bad;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v ?? 0)) as number[];
  const zone = m[7] as string;
  const local = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
  const back = new Date(local);
  // Date.UTC rolls February 30 into March: a date that does not exist comes back different.
  if (
    back.getUTCFullYear() !== y ||
    back.getUTCMonth() !== (mo as number) - 1 ||
    back.getUTCDate() !== d ||
    (h as number) > 23 ||
    (mi as number) > 59 ||
    (s as number) > 59
  ) {
    return {
      problem: `${JSON.stringify(text)} is not a real date and time; expected e.g. ${INSTANT_EXAMPLES}`,
    };
  }
  if (zone.toUpperCase() === 'Z') return { ms: local };
  const sign = zone.startsWith('-') ? -1 : 1;
  const [oh, om] = zone.slice(1).split(':').map(Number) as [number, number];
  if (oh > 23 || om > 59) return bad;
  return { ms: local - sign * (oh * 60 + om) * 60_000 };
}
