/**
 * The occurrences of the policy's recurring freeze windows, in their own
 * time zone through @date-fns/tz (TZDate), never by hand-written offsets, so
 * they hold across daylight-saving changes: a window from 16:00 is at 16:00
 * Berlin time in winter (15:00 UTC) and in summer (14:00 UTC).
 *
 * `days` are the days a window starts on; a window whose `to` is not later
 * than its `from` ends the next day (sat 16:00 to 09:00 ends Sunday 09:00).
 * A wall time a DST change skips (02:30 on the spring-forward night) is read
 * as the same span after the gap (03:30); one it repeats (02:30 on the
 * fall-back night) as its second occurrence: TZDate's reading, documented in
 * docs/policy.md.
 */
import { TZDate } from '@date-fns/tz';
import { WEEKDAYS } from '../policy/freeze-schema.js';
import type { FreezeWindow } from '../policy/types.js';

export interface Occurrence {
  start: number;
  end: number;
}

/** The occurrence of `w` that starts on the local date `y-m-d` (month 0-based; overflowing days roll over). */
function startingOn(w: FreezeWindow, y: number, m: number, d: number): Occurrence {
  const start = new TZDate(y, m, d, w.from.hour, w.from.minute, w.timezone).getTime();
  const endsNextDay = w.to.hour * 60 + w.to.minute <= w.from.hour * 60 + w.from.minute;
  const end = new TZDate(y, m, d + (endsNextDay ? 1 : 0), w.to.hour, w.to.minute, w.timezone).getTime();
  return { start, end };
}

/** The occurrences of `w` starting from the local day before `at` to `days` local days after it, in order. */
function around(w: FreezeWindow, at: number, days: number): Occurrence[] {
  const local = new TZDate(at, w.timezone);
  const out: Occurrence[] = [];
  // From the day before: an occurrence that began yesterday evening may still run.
  for (let offset = -1; offset <= days; offset++) {
    const day = new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate() + offset,
      12,
      0,
      w.timezone,
    );
    if (!w.days.includes(day.getDay())) continue;
    out.push(startingOn(w, day.getFullYear(), day.getMonth(), day.getDate()));
  }
  return out;
}

/** The occurrence of `w` in force at `at`, if any. */
export function occurrenceAt(w: FreezeWindow, at: number): Occurrence | undefined {
  return around(w, at, 0).find((o) => o.start <= at && at < o.end);
}

/** The next occurrence of `w` that starts after `at` (within a week and a day). */
export function nextOccurrence(w: FreezeWindow, at: number): Occurrence | undefined {
  return around(w, at, 8).find((o) => o.start > at);
}

/** The window as the policy file writes it: "sat, sun 16:00-09:00 Europe/Berlin". */
export function scheduleText(w: FreezeWindow): string {
  const hhmm = (t: { hour: number; minute: number }) =>
    `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
  const days = [...w.days].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((d) => WEEKDAYS[d]);
  return `${days.join(', ')} ${hhmm(w.from)}-${hhmm(w.to)} ${w.timezone}`;
}
