/**
 * Whether the housekeeping loops keep passing, for a worker's liveness probe.
 * A worker serves nothing: its housekeeping is its work, so a loop wedged on
 * a pass that never ends (a call that never returns) is a dead worker even
 * while its event loop keeps time. Each loop beats when a pass ends, failed
 * or not: a pass that fails because the store or the hosting API is down
 * ends within their timeouts, and an outage is readiness's question, not a
 * reason to restart the pod.
 */
import type { Clock } from '../runtime/clock.js';
import type { HousekeepingLoop } from '../runtime/metrics.js';

/**
 * How long a loop may go without ending a pass: ten of the lifecycle's 30 s
 * intervals, so a slow pass (a long recovery, many guards) is not a restart.
 */
export const HOUSEKEEPING_STALE_MS = 5 * 60_000;

export interface HousekeepingLiveness {
  live: boolean;
  /** Per loop started, how long since its last pass ended (or since it started, before its first). */
  sinceLastPassMs: Partial<Record<HousekeepingLoop, number>>;
  staleAfterMs: number;
}

/** When each loop last ended a pass, on the replica's clock. */
export class HousekeepingBeats {
  private readonly last = new Map<HousekeepingLoop, number>();

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    private readonly staleAfterMs = HOUSEKEEPING_STALE_MS,
  ) {}

  /** A loop starts: it is judged from now, before its first pass ends too. */
  started(loop: HousekeepingLoop): void {
    if (!this.last.has(loop)) this.last.set(loop, this.clock.now());
  }

  /** A pass of `loop` ended. */
  beat(loop: HousekeepingLoop): void {
    this.last.set(loop, this.clock.now());
  }

  /** Live while every started loop ended a pass within `staleAfterMs` (live before any started). */
  report(): HousekeepingLiveness {
    const now = this.clock.now();
    const sinceLastPassMs: HousekeepingLiveness['sinceLastPassMs'] = {};
    for (const [loop, at] of this.last) sinceLastPassMs[loop] = Math.max(0, now - at);
    const live = Object.values(sinceLastPassMs).every((ms) => ms <= this.staleAfterMs);
    return { live, sinceLastPassMs, staleAfterMs: this.staleAfterMs };
  }
}
