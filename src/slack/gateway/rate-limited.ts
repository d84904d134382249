/**
 * The one reading of Slack's 429 in the bot. The gateway's client rejects
 * rate-limited calls (rejectRateLimitedCalls) instead of sleeping them off
 * inside its request queue, so the gateway hears every 429, holds the method
 * for every replica (holds.ts) and sends the call again after the hold.
 */
import { ErrorCode, type WebAPIRateLimitedError } from '@slack/web-api';

/** Slack's Retry-After in ms when `err` is a rate-limited call's (at least 1 s), else undefined. */
export function retryAfterMs(err: unknown): number | undefined {
  const e = err as Partial<WebAPIRateLimitedError> | undefined;
  if (e?.code !== ErrorCode.RateLimitedError) return undefined;
  const seconds = Number(e.retryAfter ?? 1);
  return Math.max(1, Number.isFinite(seconds) ? seconds : 1) * 1000;
}
