/**
 * Whether the event loop is healthy, for the liveness probe. A beat is due
 * every second on the injected clock; how late it comes is the loop's lag. A
 * loop blocked by synchronous work, or starved so timers stop firing, shows
 * up here, and only that: Slack or the database being down is a readiness
 * question, and must not get every pod restarted.
 */
import type { Clock } from './clock.js';

export interface LivenessReport {
  live: boolean;
  /** The larger of the last beat's lateness and how overdue the next one is now. */
  eventLoopLagMs: number;
}

interface HeartbeatOptions {
  clock: Clock;
  /** Time between beats (default 1000). */
  intervalMs?: number;
  /** Lag beyond which the process is not live (default 10 s: a GC pause or a big parse is not a reason to restart). */
  maxLagMs?: number;
}

/** Beats on the clock until stopped; `report()` says whether the loop kept time. */
export class Heartbeat {
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly maxLagMs: number;
  private readonly stopping = new AbortController();
  private lastBeat: number;
  private lastLag = 0;
  private running = false;

  constructor(o: HeartbeatOptions) {
    this.clock = o.clock;
    this.intervalMs = o.intervalMs ?? 1000;
    this.maxLagMs = o.maxLagMs ?? 10_000;
    this.lastBeat = this.clock.now();
  }

  /** Starts beating (once). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastBeat = this.clock.now();
    void this.beat();
  }

  stop(): void {
    this.stopping.abort();
  }

  /** Live while the lag stays within maxLagMs. */
  report(): LivenessReport {
    const overdue = this.clock.now() - this.lastBeat - this.intervalMs;
    const lag = Math.max(this.lastLag, overdue, 0);
    return { live: lag <= this.maxLagMs, eventLoopLagMs: lag };
  }

  private async beat(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const due = this.clock.now() + this.intervalMs;
      try {
        await this.clock.sleep(this.intervalMs, this.stopping.signal);
      } catch {
        return;
      }
      const now = this.clock.now();
      this.lastLag = Math.max(0, now - due);
      this.lastBeat = now;
    }
  }
}
