/**
 * The policy file's `freezes:` list (issue 41): recurring windows in which
 * every change to the named environments is refused. Each problem is reported
 * as `path: message` with the rest of the file's (a bad zone or time stops the
 * start, not the first request in the window).
 */
import { z } from 'zod';

/** Day names as written in a window's `days`, in JavaScript's order (Sunday is 0). */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether the runtime's time zone database knows `zone` (an IANA name like Europe/Berlin). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const time = z
  .string({
    error: (issue) => `expected a time like "16:00" (24-hour, quoted), got ${JSON.stringify(issue.input)}`,
  })
  .refine((text) => TIME.test(text), {
    error: (issue) => `expected a time like "16:00" (24-hour HH:MM), got ${JSON.stringify(issue.input)}`,
  });

const windowSchema = z
  .strictObject({
    name: z
      .string({ error: 'expected a window name' })
      .trim()
      .min(1, { error: 'expected a non-empty window name' }),
    environments: z.preprocess(
      (value) => (typeof value === 'string' ? [value] : value),
      z
        .array(z.string({ error: 'expected an environment name or glob' }).min(1), {
          error: 'expected an environment name or glob, or a list of them',
        })
        .min(1, { error: 'expected at least one environment' }),
    ),
    days: z
      .array(
        z.enum(WEEKDAYS, {
          error: (issue) => `expected a day: ${WEEKDAYS.join(', ')}; got ${JSON.stringify(issue.input)}`,
        }),
        { error: `expected a list of days the window starts on, e.g. [sat, sun]` },
      )
      .min(1, { error: 'expected at least one day the window starts on' }),
    from: time,
    to: time,
    timezone: z.string({ error: 'expected an IANA time zone like Europe/Berlin' }).refine(isTimeZone, {
      error: (issue) =>
        `expected an IANA time zone like Europe/Berlin or UTC, got ${JSON.stringify(issue.input)} (unknown to this runtime)`,
    }),
    reason: z.string({ error: 'expected a reason as text' }).trim().min(1).optional(),
  })
  .superRefine((w, ctx) => {
    if (w.from === w.to) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `the window would last no time (from and to are both ${w.from}); to end the next day, write a "to" earlier than "from"`,
      });
    }
  });

/** `freezes:`: a list of windows with distinct names. */
export const freezeWindowsSchema = z
  .array(windowSchema, { error: 'expected a list of freeze windows' })
  .superRefine((windows, ctx) => {
    const seen = new Map<string, number>();
    windows.forEach((w, index) => {
      const first = seen.get(w.name);
      if (first === undefined) seen.set(w.name, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `duplicate window name ${JSON.stringify(w.name)} (also freezes[${first}])`,
        });
    });
  });

export type FreezeWindowFile = z.output<typeof windowSchema>;
