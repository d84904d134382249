/**
 * Instants as text. Everything the bot writes for people outside Slack's own
 * date tokens is in UTC, so a reader in any time zone, and a server in any
 * TZ, get the same words; the `in: utc` context makes date-fns compute the
 * fields in UTC instead of the process's local zone.
 */
import { utc } from '@date-fns/utc';
// The submodule, not the package root: the root loads all of date-fns (~1,400 modules, ~220 MB RSS).
import { format } from 'date-fns/format';

/** `2026-01-01 00:30 UTC`: unambiguous for readers in any time zone. */
export function formatUtcMinute(ms: number): string {
  return format(ms, "yyyy-MM-dd HH:mm 'UTC'", { in: utc });
}
