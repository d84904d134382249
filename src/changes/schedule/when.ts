/**
 * When a scheduled change applies (`--at <time>`, a form's When field), read
 * into one instant in the domain, against the injected clock: ISO 8601 with
 * an offset (`2026-12-01T18:00+01:00`, with or without seconds), a wall time
 * in a named zone (`18:00 Europe/Berlin`: the next 18:00 there, through
 * @date-fns/tz, so it holds across daylight-saving changes), or a delay
 * written as the policy writes durations (`in 2h`). A time in the past, more
 * than `maxAheadMs` ahead, or unreadable is refused with the accepted forms.
 */
import { TZDate } from '@date-fns/tz';
import { formatShorthand } from '../../format/duration.js';
import { parseInstant } from '../../format/instant.js';
import { parseDuration } from '../../policy/duration.js';
import { isTimeZone } from '../../policy/freeze-schema.js';

/** The accepted forms, named in every refusal. */
export const WHEN_EXAMPLES =
  '`2026-12-01T18:00+01:00`, `2026-12-01T18:00:30Z`, `18:00 Europe/Berlin` (the next 18:00 there) or `in 2h` (90s, 30m, 2h, 1d)';

/** How far ahead a change may be scheduled unless configured (HARBOR_SCHEDULE_MAX_DAYS). */
export const DEFAULT_SCHEDULE_MAX_DAYS = 30;

/** How late after its time a scheduled change may still apply unless configured (HARBOR_SCHEDULE_GRACE_S). */
export const DEFAULT_SCHEDULE_GRACE_MS = 600_000;

const WALL = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s+(\S+)$/;

/** The instant `text` names, or why it names none a change may be scheduled at. */
export function parseWhen(
  text: string,
  now: number,
  maxAheadMs: number,
): { at: number } | { problem: string } {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const read = readWhen(trimmed, now);
  const forms = `Accepted forms: ${WHEN_EXAMPLES}.`;
  if ('problem' in read) return { problem: `${read.problem} ${forms}` };
  if (read.at <= now)
    return {
      problem: `\`${trimmed}\` is in the past; a change is scheduled for a time ahead. ${forms}`,
    };
  if (read.at - now > maxAheadMs)
    return {
      problem: `\`${trimmed}\` is ${formatShorthand(read.at - now)} ahead, more than the ${Math.round(maxAheadMs / 86_400_000)} days a change may be scheduled ahead. ${forms}`,
    };
  return { at: read.at };
}

function readWhen(typed: string, now: number): { at: number } | { problem: string } {
  if (typed === '') return { problem: 'The time is empty.' };
  const lower = typed.toLowerCase();
  if (lower.startsWith('in ')) {
    const span = parseDuration(typed.slice(3));
    if ('problem' in span) return { problem: `\`${typed}\` is not a delay I can read: ${span.problem}.` };
    return { at: now + span.ms };
  }
  const wall = WALL.exec(typed);
  if (wall) {
    const [hour, minute, second] = [wall[1], wall[2], wall[3]].map((v) => Number(v ?? 0)) as [
      number,
      number,
      number,
    ];
    const zone = wall[4] as string;
    if (hour > 23 || minute > 59 || second > 59)
      return { problem: `\`${typed}\` is not a time of day (hours 0-23, minutes and seconds 0-59).` };
    if (!isTimeZone(zone))
      return {
        problem: `\`${zone}\` is not a time zone this runtime knows (an IANA name like Europe/Berlin or UTC).`,
      };
    return { at: nextWallTime(now, hour, minute, second, zone) };
  }
  if (/^\d{4}-/.test(typed)) {
    const instant = parseInstant(typed);
    if ('problem' in instant)
      return { problem: `\`${typed}\` is not a time I can read: ${instant.problem}.` };
    return { at: instant.ms };
  }
  return { problem: `\`${typed}\` is not a time I can read.` };
}

/** The next instant after `now` that reads hour, minute and second on the wall clocks of `zone`. */
function nextWallTime(now: number, hour: number, minute: number, second: number, zone: string): number {
  const local = new TZDate(now, zone);
  for (let offset = 0; offset <= 2; offset++) {
    const at = new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate() + offset,
      hour,
      minute,
      second,
      zone,
    ).getTime();
    if (at > now) return at;
  }
  // Unreachable: a wall time comes round within two days whatever the zone's changes.
  throw new Error(`no ${hour}:${minute} in ${zone} within two days`);
}
