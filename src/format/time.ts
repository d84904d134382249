/**
 * Instants as text. Everything the bot writes for people outside Slack's own
 * date tokens is in UTC, so a reader in any time zone, and a server in any
 * TZ, get the same words: a UTCDate answers its field getters in UTC, so
 * date-fns computes the fields in UTC instead of the process's local zone.
 *
 * lightFormat, not format: the numeric tokens here need no locale, and
 * date-fns/format loads every formatter, parser helper and the en-US locale
 * (~30 MB RSS, ~75 ms at start; lightFormat ~9 MB, see docs/memory.md).
 */
import { UTCDate } from '@date-fns/utc';
import { lightFormat } from 'date-fns/lightFormat';

/** `2026-01-01 00:30 UTC`: unambiguous for readers in any time zone. */
export function formatUtcMinute(ms: number): string {
  return lightFormat(new UTCDate(ms), "yyyy-MM-dd HH:mm 'UTC'");
}
