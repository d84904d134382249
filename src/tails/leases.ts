/**
 * Ownership of a tail among replicas: an expiring lease in the shared store
 * (`tail:<id>`), renewed on a timer. Whoever holds it runs the tail; when a
 * replica dies its lease lapses and a scanning replica takes the tail over.
 * Each renewal is also when the owner looks at the record for a stop another
 * replica asked for, so a Stop clicked anywhere lands within one period.
 */
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { LeaseStore } from '../store/types.js';

/** The store key of a tail's lease. */
function tailLeaseKey(tailId: string): string {
  return `tail:${tailId}`;
}

export interface LeaseSettings {
  store: LeaseStore;
  /** This replica's id. */
  owner: string;
  /** Lease lifetime (default 15 s). */
  ttlMs: number;
  /** Renewal period (default 5 s; well under ttlMs so one slow renewal does not lose it). */
  renewMs: number;
  clock: Clock;
  logger: Logger;
}

interface LeaseHooks {
  /** After every successful renewal (look for stop requests). */
  onRenewed(): Promise<void>;
  /** Another replica holds the lease now: stop running the tail here. */
  onLost(): void;
}

/** A held lease on one tail, renewed until released or lost. */
export class TailLease {
  private readonly stopRenewing = new AbortController();
  private renewing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly settings: LeaseSettings,
    readonly tailId: string,
  ) {}

  /** Takes the tail's lease if it is free, expired or already ours; undefined when another replica holds it. */
  static async acquire(settings: LeaseSettings, tailId: string): Promise<TailLease | undefined> {
    const { store, owner, ttlMs, clock } = settings;
    const held = await store.acquireLease(tailLeaseKey(tailId), owner, ttlMs, clock.now());
    return held ? new TailLease(settings, tailId) : undefined;
  }

  /** Starts renewing every renewMs; calls the hooks as renewals go. */
  keep(hooks: LeaseHooks): void {
    this.renewing = this.renewLoop(hooks);
  }

  /** Stops renewing and gives the lease up, so another replica may take the tail at once. */
  async release(): Promise<void> {
    this.stopRenewing.abort();
    await this.renewing;
    try {
      await this.settings.store.releaseLease(tailLeaseKey(this.tailId), this.settings.owner);
    } catch (error) {
      this.settings.logger.warn('could not release a tail lease (it will expire)', {
        tail: this.tailId,
        error,
      });
    }
  }

  /** Stops renewing without touching the lease (it was lost, or it should lapse). */
  async abandon(): Promise<void> {
    this.stopRenewing.abort();
    await this.renewing;
  }

  private async renewLoop(hooks: LeaseHooks): Promise<void> {
    const { store, owner, ttlMs, renewMs, clock, logger } = this.settings;
    const signal = this.stopRenewing.signal;
    const key = tailLeaseKey(this.tailId);
    for (;;) {
      try {
        await clock.sleep(renewMs, signal);
      } catch {
        return;
      }
      let held: boolean;
      try {
        held = await store.renewLease(key, owner, ttlMs, clock.now());
      } catch (error) {
        // The store may be back next time; until the lease lapses nobody else takes the tail.
        logger.warn('could not renew a tail lease', { tail: this.tailId, error });
        continue;
      }
      if (signal.aborted) return;
      if (!held) {
        hooks.onLost();
        return;
      }
      try {
        await hooks.onRenewed();
      } catch (error) {
        logger.warn('could not check a tail for stop requests', { tail: this.tailId, error });
      }
    }
  }
}
