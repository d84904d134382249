/**
 * The one Retry-After hold of a workspace: when Slack answered 429, nothing
 * of that method (for a post, in that channel) goes out on this replica
 * before the hold ends, and the hold is put in the store's gate so every
 * other replica keeps it too (the message methods' slots, views.publish's
 * gate). Methods without a gate in the store are held on this replica.
 */
import type { Clock } from '../../runtime/clock.js';

/** Where a hold is shared with the other replicas (the store's gate of the method), if anywhere. */
export type ShareHold = (method: string, until: number, channel?: string) => Promise<void>;

export class RateHolds {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly share: ShareHold,
  ) {}

  /** Slack answered 429 to `method` (in `channel`, for a post): held here and on every replica. */
  async hold(method: string, retryAfterMs: number, channel?: string): Promise<void> {
    const until = this.clock.now() + retryAfterMs;
    const key = keyOf(method, channel);
    this.until.set(key, Math.max(this.until.get(key) ?? 0, until));
    await this.share(method, until, channel);
  }

  /** When `method` (in `channel`) may go out again on this replica; in the past when it may now. */
  openAt(method: string, channel?: string): number {
    const now = this.clock.now();
    let at = Number.NEGATIVE_INFINITY;
    for (const key of [method, ...(channel ? [keyOf(method, channel)] : [])]) {
      const until = this.until.get(key);
      if (until === undefined) continue;
      if (until <= now) this.until.delete(key);
      else at = Math.max(at, until);
    }
    return at;
  }

  /** Waits out a hold of `method` (in `channel`) if there is one. */
  async wait(method: string, channel: string | undefined, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const at = this.openAt(method, channel);
      if (at <= this.clock.now()) return;
      await this.clock.sleep(at - this.clock.now(), signal);
    }
  }
}

/** A post's 429 is its channel's (one a second a channel); any other method's is the workspace's. */
function keyOf(method: string, channel?: string): string {
  return method === 'chat.postMessage' && channel ? `${method}:${channel}` : method;
}
