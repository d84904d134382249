/**
 * Spans of time as people read them ("45 s", "2 h 5 min", "in 3 days") and
 * in the policy file's shorthand ("30m"). A span is fixed-length arithmetic,
 * not a calendar interval: it is split into days, hours, minutes and seconds
 * here (date-fns' intervalToDuration would count months and follow the local
 * time zone's daylight-saving shifts), and date-fns' formatDuration writes it
 * with the unit words below, so no output depends on the process's TZ.
 */
import type { Duration, FormatDistanceToken, Locale } from 'date-fns';
// The submodule, not the package root: the root loads all of date-fns (~1,400 modules, ~220 MB RSS).
import { formatDuration } from 'date-fns/formatDuration';
import { noun } from './english.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type UnitWords = Partial<Record<FormatDistanceToken, (n: number) => string>>;

/** A date-fns locale that knows only how to write the units a span uses. */
function unitLocale(words: UnitWords): Pick<Locale, 'formatDistance'> {
  return { formatDistance: (token, n) => words[token]?.(n) ?? `${n} ${token}` };
}

// "2 h 5 min": the short units every span in a message uses.
const SHORT = unitLocale({
  xSeconds: (n) => `${n} s`,
  xMinutes: (n) => `${n} min`,
  xHours: (n) => `${n} h`,
  xDays: (n) => `${n} d`,
});

// "3 days": a rough distance names days in full, as people say it.
const ROUGH = unitLocale({
  xMinutes: (n) => `${n} min`,
  xHours: (n) => `${n} h`,
  xDays: (n) => `${n} ${noun(n, 'day')}`,
});

// "30m": the policy file's notation, one number and one letter.
const SHORTHAND = unitLocale({
  xSeconds: (n) => `${n}s`,
  xMinutes: (n) => `${n}m`,
  xHours: (n) => `${n}h`,
  xDays: (n) => `${n}d`,
});

function write(duration: Duration, locale: Pick<Locale, 'formatDistance'>): string {
  // zero: a lone "0 s" is still a span; formatDuration would otherwise write nothing.
  const units = Object.keys(duration) as (keyof Duration)[];
  return formatDuration(duration, { locale, format: units, zero: units.length === 1 });
}

/** "45 s", "12 min", "2 h 5 min", "3 d 4 h": a span for people, precise to its largest two units. */
export function formatSpan(ms: number): string {
  const span = Math.max(0, ms);
  if (Math.round(span / SECOND) < 60) return write({ seconds: Math.round(span / SECOND) }, SHORT);
  const minutes = Math.round(span / MINUTE);
  if (minutes < 60) return write({ minutes }, SHORT);
  if (minutes < 48 * 60) return write({ hours: Math.floor(minutes / 60), minutes: minutes % 60 }, SHORT);
  const hours = Math.floor(minutes / 60);
  return write({ days: Math.floor(hours / 24), hours: hours % 24 }, SHORT);
}

/** "less than a minute", "14 min", "3 h", "3 days": one rounded unit, for distances that keep moving. */
export function formatRoughSpan(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / MINUTE);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 120) return write({ minutes }, ROUGH);
  if (minutes < 48 * 60) return write({ hours: Math.round(minutes / 60) }, ROUGH);
  return write({ days: Math.round(minutes / (24 * 60)) }, ROUGH);
}

/** "in 14 min", "in 2 h", "5 min ago": the rough distance from `now` to `at`. */
export function formatRelative(at: number, now: number): string {
  const span = formatRoughSpan(at - now);
  return at >= now ? `in ${span}` : `${span} ago`;
}

/** A span in the largest whole unit of the policy notation: 7_200_000 -> `2h`, 5_400_000 -> `90m`. */
export function formatShorthand(ms: number): string {
  if (ms % DAY === 0) return write({ days: ms / DAY }, SHORTHAND);
  if (ms % HOUR === 0) return write({ hours: ms / HOUR }, SHORTHAND);
  if (ms % MINUTE === 0) return write({ minutes: ms / MINUTE }, SHORTHAND);
  return write({ seconds: Math.round(ms / SECOND) }, SHORTHAND);
}
