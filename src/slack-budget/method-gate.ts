/**
 * A Slack method's limit for the whole workspace, beyond the two message
 * methods the tails share (shared-slots.ts): Home tabs' `views.publish`. Like
 * those, the gate lives in the store every replica uses (one GCRA row per
 * workspace and method), so N replicas redrawing Home tabs together stay
 * within what one would, and a 429 seen by one replica pauses every
 * replica's calls of the method until Slack's Retry-After.
 *
 * When the store fails, a local gate at the same pace stands in (the calls
 * are redraws that may lag; none is lost for it).
 */
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { SlackBudgetStore, SlotRule } from '../store/types.js';
import { RateGate } from './rate-gate.js';

export interface MethodGateOptions {
  store: SlackBudgetStore;
  workspace: string;
  method: string;
  /** Calls a minute for the workspace. */
  perMinute: number;
  /** Calls allowed back to back. */
  burst: number;
  clock: Clock;
  logger: Logger;
}

/** One method's gate in the store, for one workspace. */
export class MethodGate {
  private readonly rule: SlotRule;
  private readonly local: RateGate;
  /** Until when a 429 this replica saw pauses the method. */
  private pausedUntil = 0;

  constructor(private readonly o: MethodGateOptions) {
    const intervalMs = Math.ceil(60_000 / o.perMinute);
    this.rule = {
      key: `${o.workspace}:${o.method}`,
      intervalMs,
      toleranceMs: (o.burst - 1) * intervalMs,
    };
    this.local = new RateGate(intervalMs, o.burst, o.clock.now());
  }

  /** Waits for a slot of the method (sleeping on the clock until the gate opens); aborted by `signal`. */
  async wait(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const openAt = await this.take();
      if (openAt === undefined) return;
      await this.o.clock.sleep(Math.max(1, openAt - this.o.clock.now()), signal);
    }
  }

  /**
   * Waits out a 429 this replica saw since it took its slot: a call whose slot was taken
   * before the 429 (and that did other work meanwhile) must not go out inside the pause.
   */
  async pause(signal?: AbortSignal): Promise<void> {
    while (this.o.clock.now() < this.pausedUntil) {
      await this.o.clock.sleep(this.pausedUntil - this.o.clock.now(), signal);
    }
  }

  /** Slack answered 429: no replica calls the method before `until`. */
  async hold(until: number): Promise<void> {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    this.local.pauseUntil(until);
    try {
      await this.o.store.holdSlots(this.rule.key, Math.ceil(until + this.rule.toleranceMs));
    } catch (error) {
      this.o.logger.warn('could not share a Slack rate limit pause through the store', {
        method: this.o.method,
        error,
      });
    }
  }

  // Takes a slot now (undefined), or says when the gate opens.
  private async take(): Promise<number | undefined> {
    const now = this.o.clock.now();
    try {
      const answer = await this.o.store.takeSlot(this.rule, now);
      return answer.taken ? undefined : answer.openAt;
    } catch (error) {
      this.o.logger.warn('the Slack budget store failed; pacing this replica alone', {
        method: this.o.method,
        error,
      });
      const readyAt = this.local.readyAt();
      if (readyAt > now) return readyAt;
      this.local.take(now);
      return undefined;
    }
  }
}
