/**
 * Slack's per-method limits are the workspace's, not a replica's: three
 * replicas each pacing itself at 45 edits a minute made 86 a minute and drew
 * 429s (issue 22.1). StoreSlots draws every slot from rate gates in the store
 * every replica already uses (src/store/slack-budget-store.ts), so N
 * replicas together stay within what one would. Why gates in the store and
 * not one replica drawing for all (with failover): tails keep running where
 * their lease is, a person's change message is sent by whichever replica
 * took the click, and a gate in the store needs no leader, no handover and
 * no forwarding of messages between replicas.
 *
 * Two classes share each gate. A person's message (a change preview, its
 * result) may dig deeper into the burst than a tail's redraw, so when both
 * wait the person gets the next slot: a person waiting beats a log refresh.
 * The deepest burst still keeps any minute of edits under Slack's 50 (see
 * `slotRules`). In a channel (one post a second, short bursts allowed) a
 * person's post waits only for two seconds after the tails' last post there,
 * not for other people's: it books the channel's next second, so tails post
 * after it, and people's messages (a preview, then its thread) go out as
 * bursts, as Slack allows and as they went before the budget was shared.
 *
 * Fairness between tails is by tail, not by replica: each replica reports
 * how many tails want slots and paces its own at its share of the rate
 * (share()); the gate in the store is the hard limit above the shares.
 *
 * When the store fails, the slot comes from a local gate at this replica's
 * last known share of the rate (one of the replicas last seen), so change
 * messages still go out and N replicas still stay near the limit; each such
 * slot is counted (`onFallback`, harbor_slack_budget_fallback_total).
 */
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { SlackBudgetStore, SlotRule } from '../store/types.js';
import type { BudgetOptions, MessageMethod } from './budget-types.js';
import { RateGate } from './rate-gate.js';

/** Who a slot is for: a tail's redraw, or a person's message (previews, results), which goes first. */
export type SlotClass = 'tail' | 'person';

/** A slot taken, or when to ask again. */
export type SlotGrant = { taken: true } | { taken: false; retryAt: number };

/** One workspace's Slack budget as every replica shares it. */
export interface SharedSlots {
  /** Takes a slot of `method` (for a post, of its channel too) for `cls` now, or says when to try again. */
  take(method: MessageMethod, channel: string, cls: SlotClass): Promise<SlotGrant>;
  /** Slack answered 429: nobody, on any replica, makes the call before `until` (one channel's posts, when given). */
  hold(method: MessageMethod, until: number, channel?: string): Promise<void>;
  /** Tells the other replicas how many tails here want `method`; the fraction of the rate this replica may use. */
  share(method: MessageMethod, consumers: number): Promise<number>;
}

export interface StoreSlotsOptions {
  store: SlackBudgetStore;
  workspace: string;
  replicaId: string;
  clock: Clock;
  logger: Logger;
  /** The workspace's limits (the MessageBudget's defaults: 45 edits and 100 posts a minute, bursts of 3). */
  limits?: Omit<BudgetOptions, 'clock'>;
  /**
   * Slots a person may take beyond the tails' burst: edits (default 2: 45 a minute + 3 + 2 stays
   * under Tier 3's 50) and posts (default 20: 100 a minute + 23 is far under Slack's several hundred).
   */
  personBurst?: { updates?: number; posts?: number };
  /** How long a replica's reported demand counts (default 10 s; replicas report every 2 s while busy). */
  demandTtlMs?: number;
  /** Told of every slot taken from the local fallback because the store failed. */
  onFallback?: (method: MessageMethod) => void;
}

/** How far ahead a channel's posts may be booked and a person still posts there at once. */
const PERSON_CHANNEL_TOLERANCE_MS = 10 * 60_000;

interface MethodRules {
  tail: SlotRule;
  person: SlotRule;
}

/**
 * The gate of each method and class. A gate of interval T allows at most
 * W / T + b calls in any W ms with a burst of b (its tolerance is (b - 1) T),
 * so 45 edits a minute (T = 1334 ms), the tails' burst of 3 and a person's 2
 * more allow at most 49 in any minute: under Tier 3's 50 whatever the mix.
 * Intervals are whole milliseconds (the column is an integer), rounded up.
 */
export function slotRules(
  workspace: string,
  limits: StoreSlotsOptions['limits'] = {},
  personBurst: StoreSlotsOptions['personBurst'] = {},
): Record<MessageMethod, MethodRules> {
  const rules = (method: MessageMethod, perMinute: number, burst: number, extra: number): MethodRules => {
    const intervalMs = Math.ceil(60_000 / perMinute);
    const key = `${workspace}:${method}`;
    const tail = { key, intervalMs, toleranceMs: (burst - 1) * intervalMs };
    return { tail, person: { ...tail, toleranceMs: (burst - 1 + extra) * intervalMs } };
  };
  return {
    'chat.update': rules(
      'chat.update',
      limits.updatesPerMinute ?? 45,
      limits.updateBurst ?? 3,
      personBurst.updates ?? 2,
    ),
    'chat.postMessage': rules(
      'chat.postMessage',
      limits.postsPerMinute ?? 100,
      limits.postBurst ?? 3,
      personBurst.posts ?? 20,
    ),
  };
}

/** SharedSlots on the store every replica uses. */
export class StoreSlots implements SharedSlots {
  private readonly rules: Record<MessageMethod, MethodRules>;
  private readonly postSpacingMs: number;
  private readonly fallbacks = new Map<string, RateGate>();
  /** Replicas last seen reporting demand (at least this one). */
  private replicas = 1;
  private failing = false;
  /** Store calls under way, and who waits for there to be none. */
  private pending = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly o: StoreSlotsOptions) {
    this.rules = slotRules(o.workspace, o.limits, o.personBurst);
    this.postSpacingMs = Math.ceil(o.limits?.postSpacingMs ?? 1000);
  }

  /** Whether a call to the store is under way. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once no call to the store is under way (tests move their clock only then). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  take(method: MessageMethod, channel: string, cls: SlotClass): Promise<SlotGrant> {
    return this.tracked(this.takeNow(method, channel, cls));
  }

  hold(method: MessageMethod, until: number, channel?: string): Promise<void> {
    return this.tracked(this.holdNow(method, until, channel));
  }

  share(method: MessageMethod, consumers: number): Promise<number> {
    return this.tracked(this.shareNow(method, consumers));
  }

  private async tracked<T>(call: Promise<T>): Promise<T> {
    this.pending += 1;
    try {
      return await call;
    } finally {
      this.pending -= 1;
      if (this.pending === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private async takeNow(method: MessageMethod, channel: string, cls: SlotClass): Promise<SlotGrant> {
    const now = this.o.clock.now();
    const rule = this.rules[method][cls];
    try {
      const answer = await this.takeFromStore(method, channel, cls, rule, now);
      this.recovered();
      return answer;
    } catch (error) {
      return this.takeLocally({ method, channel, cls, rule, now }, error);
    }
  }

  private async holdNow(method: MessageMethod, until: number, channel?: string): Promise<void> {
    // Held to the person's depth, so when the pause ends a person's message goes before any tail's.
    const person = this.rules[method].person;
    const inChannel = method === 'chat.postMessage' && channel !== undefined;
    const key = inChannel ? this.channelKey(channel) : person.key;
    this.fallbackGate(key, inChannel ? this.postSpacingMs : person.intervalMs * this.replicas).pauseUntil(
      until,
    );
    try {
      await this.o.store.holdSlots(key, Math.ceil(inChannel ? until : until + person.toleranceMs));
    } catch (error) {
      this.o.logger.warn('could not share a Slack rate limit pause through the store', { method, error });
    }
  }

  private async shareNow(method: MessageMethod, consumers: number): Promise<number> {
    const { store, replicaId, clock } = this.o;
    try {
      const totals = await store.reportDemand(
        this.rules[method].tail.key,
        replicaId,
        consumers,
        this.o.demandTtlMs ?? 10_000,
        clock.now(),
      );
      this.replicas = Math.max(1, totals.replicas);
      return consumers === 0 ? 1 : consumers / Math.max(consumers, totals.consumers);
    } catch (error) {
      this.o.logger.warn('could not share the demand for Slack slots through the store', { method, error });
      return 1 / this.replicas;
    }
  }

  private async takeFromStore(
    method: MessageMethod,
    channel: string,
    cls: SlotClass,
    rule: SlotRule,
    now: number,
  ): Promise<SlotGrant> {
    const { store } = this.o;
    if (method !== 'chat.postMessage') {
      const answer = await store.takeSlot(rule, now);
      return answer.taken ? answer : { taken: false, retryAt: answer.openAt };
    }
    return cls === 'tail' ? this.tailPost(channel, rule, now) : this.personPost(channel, rule, now);
  }

  /**
   * A tail's post: it marks the channel as posted to by a tail (people's posts keep two seconds from
   * it), then takes the channel's second (which people's posts book too) and the workspace's slot;
   * what was taken is given back when a later one is not there.
   */
  private async tailPost(channel: string, rule: SlotRule, now: number): Promise<SlotGrant> {
    const { store } = this.o;
    const mark = {
      key: this.tailsKey(channel),
      intervalMs: 2 * this.postSpacingMs,
      toleranceMs: PERSON_CHANNEL_TOLERANCE_MS,
    };
    const spacing = { key: this.channelKey(channel), intervalMs: this.postSpacingMs, toleranceMs: 0 };
    const taken: SlotRule[] = [];
    for (const gate of [mark, spacing, rule]) {
      const answer = await store.takeSlot(gate, now);
      if (!answer.taken) {
        for (const back of taken) await store.returnSlot(back.key, back.intervalMs);
        return { taken: false, retryAt: answer.openAt };
      }
      taken.push(gate);
    }
    return { taken: true };
  }

  /**
   * A person's post waits only for two seconds after the tails' last post in the channel (so a
   * person's short burst, a preview and its thread, has two seconds to itself), then books the
   * channel's next second (tails post after it) whatever other people booked. Looked at again after
   * booking: a tail that marked the channel meanwhile would crowd it, so the booking is given back.
   */
  private async personPost(channel: string, rule: SlotRule, now: number): Promise<SlotGrant> {
    const { store } = this.o;
    // A take of no interval only looks (it moves the mark to now at most, which changes no answer).
    const look = { key: this.tailsKey(channel), intervalMs: 0, toleranceMs: 0 };
    const before = await store.takeSlot(look, now);
    if (!before.taken) return { taken: false, retryAt: before.openAt };
    const spacing = {
      key: this.channelKey(channel),
      intervalMs: this.postSpacingMs,
      toleranceMs: PERSON_CHANNEL_TOLERANCE_MS,
    };
    await store.takeSlot(spacing, now);
    const after = await store.takeSlot(look, now);
    const answer = after.taken ? await store.takeSlot(rule, now) : after;
    if (answer.taken) return answer;
    await store.returnSlot(spacing.key, spacing.intervalMs);
    return { taken: false, retryAt: answer.openAt };
  }

  /** The store failed: a local gate at this replica's share (one of the replicas last seen), counted. */
  private takeLocally(
    ask: { method: MessageMethod; channel: string; cls: SlotClass; rule: SlotRule; now: number },
    error: unknown,
  ): SlotGrant {
    const { method, channel, cls, rule, now } = ask;
    if (!this.failing) {
      this.failing = true;
      this.o.logger.warn('the store failed; Slack slots come from this replica’s share until it is back', {
        method,
        replicas: this.replicas,
        error,
      });
    }
    const gates = [this.fallbackGate(rule.key, rule.intervalMs * this.replicas)];
    const inChannel =
      method === 'chat.postMessage'
        ? this.fallbackGate(this.channelKey(channel), this.postSpacingMs)
        : undefined;
    // As through the store, a person books the channel's second without waiting for it.
    if (inChannel && cls === 'tail') gates.push(inChannel);
    const readyAt = Math.max(...gates.map((g) => g.readyAt()));
    if (readyAt > now) return { taken: false, retryAt: readyAt };
    for (const gate of gates) gate.take(now);
    if (inChannel && cls === 'person') inChannel.take(now);
    this.o.onFallback?.(method);
    return { taken: true };
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.o.logger.info('the store answers again; Slack slots are shared through it');
  }

  private fallbackGate(key: string, intervalMs: number): RateGate {
    let gate = this.fallbacks.get(key);
    if (!gate || gate.intervalMs !== intervalMs) {
      const fresh = new RateGate(intervalMs, 1, this.o.clock.now());
      // A pause (or the calls) the old gate knew about still hold.
      if (gate) fresh.pauseUntil(gate.readyAt());
      gate = fresh;
      this.fallbacks.set(key, gate);
    }
    return gate;
  }

  private channelKey(channel: string): string {
    return `${this.o.workspace}:chat.postMessage:${channel}`;
  }

  /** Two seconds from the tails' last post in the channel (people's posts wait for it, not for each other). */
  private tailsKey(channel: string): string {
    return `${this.channelKey(channel)}:tails`;
  }
}
