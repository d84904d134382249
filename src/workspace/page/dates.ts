/**
 * Slack's `<!date^seconds^format|fallback>` tokens, drawn in the viewer's own
 * time zone as Slack's clients do. Pure functions (no DOM), unit-tested.
 */

const DAY_MS = 86_400_000;

function ordinal(n: number): string {
  const rest = n % 100;
  if (rest >= 11 && rest <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

function parts(date: Date, timeZone: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    weekday: 'long',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hour12: true,
  });
  for (const p of format.formatToParts(date)) out[p.type] = p.value;
  return out;
}

// Calendar day number in the zone, to tell today/yesterday/tomorrow.
function dayIndex(date: Date, timeZone: string | undefined): number {
  const p = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(date)
    .split('-')
    .map(Number);
  return Math.round(Date.UTC(p[0] ?? 1970, (p[1] ?? 1) - 1, p[2] ?? 1) / DAY_MS);
}

function ago(ms: number, now: number): string {
  const s = Math.round((now - ms) / 1000);
  const future = s < 0;
  const abs = Math.abs(s);
  const [n, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.round(abs / 60), 'minute']
        : abs < DAY_MS / 1000
          ? [Math.round(abs / 3600), 'hour']
          : [Math.round(abs / 86400), 'day'];
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${text}` : `${text} ago`;
}

/** The text a date token shows: `format` with Slack's `{date_…}`/`{time…}`/`{ago}` replaced. */
export function formatSlackDate(
  seconds: number,
  format: string,
  options: { timeZone?: string; now?: number } = {},
): string {
  const date = new Date(seconds * 1000);
  const now = options.now ?? Date.now();
  const p = parts(date, options.timeZone);
  const month = p.month ?? '';
  const day = Number(p.day ?? '1');
  const year = p.year ?? '';
  const dateLong = `${p.weekday}, ${month} ${ordinal(day)}, ${year}`;
  const dateMid = `${month} ${ordinal(day)}, ${year}`;
  const dateShort = `${month.slice(0, 3)} ${day}, ${year}`;
  const diff = dayIndex(date, options.timeZone) - dayIndex(new Date(now), options.timeZone);
  const pretty = (fallback: string) =>
    diff === 0 ? 'today' : diff === -1 ? 'yesterday' : diff === 1 ? 'tomorrow' : fallback;
  const numeric = new Intl.DateTimeFormat('en-CA', {
    timeZone: options.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
  const values: Record<string, string> = {
    date_num: numeric,
    date: dateMid,
    date_short: dateShort,
    date_long: dateLong,
    date_pretty: pretty(dateMid),
    date_short_pretty: pretty(dateShort),
    date_long_pretty: pretty(dateLong),
    time: `${p.hour}:${p.minute} ${p.dayPeriod}`,
    time_secs: `${p.hour}:${p.minute}:${p.second} ${p.dayPeriod}`,
    ago: ago(date.getTime(), now),
  };
  return format.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
