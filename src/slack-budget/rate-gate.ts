/**
 * One rate limit as a "generic cell rate algorithm" gate: a call is allowed
 * once per `intervalMs` on average, with up to `burst` calls back to back.
 * It keeps one number (the theoretical arrival time) instead of a token
 * count, so there is no refill loop and no drift, and in any window of W ms
 * it allows at most burst + W / intervalMs calls.
 */
export class RateGate {
  private tat: number; // theoretical arrival time: when the gate would be "empty" again
  private interval: number;
  private toleranceMs: number;

  constructor(
    intervalMs: number,
    readonly burst: number,
    now: number,
  ) {
    if (!Number.isInteger(burst) || burst < 1)
      throw new RangeError(`burst must be an integer >= 1 (got ${burst})`);
    this.interval = checkedInterval(intervalMs);
    this.toleranceMs = (burst - 1) * intervalMs;
    this.tat = now;
  }

  /** Average ms between calls. */
  get intervalMs(): number {
    return this.interval;
  }

  /** Changes the pace (this replica's share of a shared rate moved); calls already made stay counted. */
  retune(intervalMs: number): void {
    this.interval = checkedInterval(intervalMs);
    this.toleranceMs = (this.burst - 1) * intervalMs;
  }

  /** The earliest time a call is allowed (may be in the past). */
  readyAt(): number {
    return this.tat - this.toleranceMs;
  }

  /** Records a call made at `now` (the caller has checked readyAt). */
  take(now: number): void {
    this.tat = Math.max(this.tat, now) + this.interval;
  }

  /** Closes the gate until `until`, then allows a single call (no burst right after a 429). */
  pauseUntil(until: number): void {
    this.tat = Math.max(this.tat, until + this.toleranceMs);
  }
}

function checkedInterval(intervalMs: number): number {
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) {
    throw new RangeError(`rate interval must be a positive number of ms (got ${intervalMs})`);
  }
  return intervalMs;
}
