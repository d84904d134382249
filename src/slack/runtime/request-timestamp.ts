/**
 * Slack's signing scheme bounds replay by the request timestamp, and Bolt's
 * verifySlackRequest only refuses timestamps more than 5 minutes in the
 * past. A signature dated in the future (a body signed ahead of time with a
 * leaked secret, or a clock far off) would stay replayable until that time
 * plus 5 minutes, so the same window is applied on both sides of now.
 */

/** Slack's tolerance for the request timestamp, either way. */
const MAX_SKEW_SECONDS = 5 * 60;

/** Why a request timestamp (seconds) dated ahead of `nowMs` is refused, or undefined when it is not too far ahead. */
export function futureTimestampProblem(timestampSeconds: number, nowMs: number): string | undefined {
  const nowSeconds = Math.floor(nowMs / 1000);
  if (timestampSeconds > nowSeconds + MAX_SKEW_SECONDS)
    return `x-slack-request-timestamp is more than ${MAX_SKEW_SECONDS / 60} minutes in the future`;
  return undefined;
}
