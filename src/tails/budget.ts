/**
 * One workspace's budget for the message writes log tails make (named for
 * what it paces, not for the platform; the limits are Slack's). chat.update is
 * Tier 3 (about 50 a minute for the whole workspace) and chat.postMessage
 * about one a second per channel, so tails must not each pace themselves:
 * they ask this scheduler for a slot and it hands slots out fairly. The
 * least recently served waiting consumer goes first, so one tail refreshes
 * about every 1.3 s and thirty tails each get an equal, slower share. A 429
 * pauses the method for everyone, as Slack means it.
 */
import type { Clock } from '../runtime/clock.js';
import {
  type AcquireRequest,
  BudgetError,
  type BudgetOptions,
  type BudgetStats,
  type MessageMethod,
} from './budget-types.js';
import { RateGate } from './rate-gate.js';

export {
  type AcquireRequest,
  BudgetError,
  type BudgetOptions,
  type BudgetStats,
  type MessageMethod,
} from './budget-types.js';

interface Waiter {
  consumer: string;
  channel: string;
  since: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  cleanup: () => void;
}

interface Lane {
  gate: RateGate;
  waiters: Waiter[];
  /** Grant order per consumer; lower = served longer ago. */
  lastGrant: Map<string, number>;
  timer?: AbortController;
  timerAt?: number;
  pausedUntil?: number;
}

const METHODS: readonly MessageMethod[] = ['chat.update', 'chat.postMessage'];

/** The per-workspace scheduler of chat.update and chat.postMessage slots. */
export class MessageBudget {
  private readonly clock: Clock;
  private readonly lanes: Record<MessageMethod, Lane>;
  private readonly channelGates = new Map<string, RateGate>();
  private readonly postSpacingMs: number;
  private readonly granted = new Map<string, number>();
  private readonly grantedByMethod: Record<MessageMethod, number> = {
    'chat.update': 0,
    'chat.postMessage': 0,
  };
  private readonly waits = { count: 0, totalMs: 0, maxMs: 0 };
  private grantSeq = 0;
  private closed = false;

  constructor(options: BudgetOptions) {
    this.clock = options.clock;
    const now = this.clock.now();
    const lane = (perMinute: number, burst: number): Lane => ({
      gate: new RateGate(60_000 / perMinute, burst, now),
      waiters: [],
      lastGrant: new Map(),
    });
    this.lanes = {
      'chat.update': lane(options.updatesPerMinute ?? 45, options.updateBurst ?? 3),
      'chat.postMessage': lane(options.postsPerMinute ?? 100, options.postBurst ?? 3),
    };
    this.postSpacingMs = options.postSpacingMs ?? 1000;
  }

  /** Resolves when the consumer may make the call; rejects with the signal's reason when aborted. */
  acquire(request: AcquireRequest): Promise<void> {
    const { method, channel, consumer, signal } = request;
    const lane = this.lanes[method];
    if (this.closed) return Promise.reject(new BudgetError('the Slack budget is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (lane.waiters.some((w) => w.consumer === consumer)) {
      return Promise.reject(new BudgetError(`${consumer} is already waiting for ${method}`));
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        lane.waiters = lane.waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
        this.schedule(method);
      };
      const waiter: Waiter = {
        consumer,
        channel,
        since: this.clock.now(),
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.waiters.push(waiter);
      this.schedule(method);
    });
  }

  /** Slack answered 429: nobody makes this call before now + retryAfterMs (one channel's posts only, when given). */
  rateLimited(method: MessageMethod, retryAfterMs: number, channel?: string): void {
    const until = this.clock.now() + Math.max(0, retryAfterMs);
    const lane = this.lanes[method];
    if (method === 'chat.postMessage' && channel !== undefined) {
      this.channelGate(channel).pauseUntil(until);
    } else {
      lane.gate.pauseUntil(until);
      lane.pausedUntil = Math.max(lane.pausedUntil ?? 0, until);
    }
    this.schedule(method);
  }

  /** Drops a finished consumer's bookkeeping (its waiters must have been aborted). */
  forget(consumer: string): void {
    this.granted.delete(consumer);
    for (const method of METHODS) this.lanes[method].lastGrant.delete(consumer);
    // A channel gate that is open again holds nothing a fresh gate would not, so idle channels cost no memory.
    const now = this.clock.now();
    for (const [channel, gate] of this.channelGates)
      if (gate.readyAt() <= now) this.channelGates.delete(channel);
  }

  /** Counters for metrics and tests. */
  stats(): BudgetStats {
    const now = this.clock.now();
    const pausedUntil: Partial<Record<MessageMethod, number>> = {};
    for (const method of METHODS) {
      const until = this.lanes[method].pausedUntil;
      if (until !== undefined && until > now) pausedUntil[method] = until;
    }
    return {
      granted: Object.fromEntries(this.granted),
      grantedByMethod: { ...this.grantedByMethod },
      waits: { ...this.waits },
      waiting: {
        'chat.update': this.lanes['chat.update'].waiters.length,
        'chat.postMessage': this.lanes['chat.postMessage'].waiters.length,
      },
      pausedUntil,
    };
  }

  /** Rejects every waiter and stops the timers (shutdown). */
  close(reason: unknown = new BudgetError('the Slack budget is closed')): void {
    this.closed = true;
    for (const method of METHODS) {
      const lane = this.lanes[method];
      lane.timer?.abort();
      lane.timer = undefined;
      const waiters = lane.waiters;
      lane.waiters = [];
      for (const w of waiters) {
        w.cleanup();
        w.reject(reason);
      }
    }
  }

  private channelGate(channel: string): RateGate {
    let gate = this.channelGates.get(channel);
    if (!gate) {
      gate = new RateGate(this.postSpacingMs, 1, this.clock.now());
      this.channelGates.set(channel, gate);
    }
    return gate;
  }

  /** Grants every slot that is due now, then arms one timer for the next time a grant could happen. */
  private schedule(method: MessageMethod): void {
    const lane = this.lanes[method];
    for (;;) {
      if (this.closed || lane.waiters.length === 0) {
        this.disarm(lane);
        return;
      }
      const now = this.clock.now();
      const laneReady = lane.gate.readyAt();
      if (laneReady > now) {
        this.arm(method, laneReady);
        return;
      }
      const { pick, nextAt } = this.pickWaiter(method, now);
      if (!pick) {
        this.arm(method, nextAt);
        return;
      }
      this.grant(method, pick, now);
    }
  }

  /** The eligible waiter served longest ago, or when the first one becomes eligible. */
  private pickWaiter(method: MessageMethod, now: number): { pick?: Waiter; nextAt: number } {
    const lane = this.lanes[method];
    let pick: Waiter | undefined;
    let pickOrder = Number.POSITIVE_INFINITY;
    let nextAt = Number.POSITIVE_INFINITY;
    for (const w of lane.waiters) {
      if (method === 'chat.postMessage') {
        const ready = this.channelGate(w.channel).readyAt();
        if (ready > now) {
          nextAt = Math.min(nextAt, ready);
          continue;
        }
      }
      // Never served = -1, so a new tail gets its first refresh before busy ones get another.
      const order = lane.lastGrant.get(w.consumer) ?? -1;
      if (order < pickOrder) {
        pick = w;
        pickOrder = order;
      }
    }
    return { pick, nextAt };
  }

  private grant(method: MessageMethod, waiter: Waiter, now: number): void {
    const lane = this.lanes[method];
    lane.waiters = lane.waiters.filter((w) => w !== waiter);
    lane.gate.take(now);
    if (method === 'chat.postMessage') this.channelGate(waiter.channel).take(now);
    lane.lastGrant.set(waiter.consumer, this.grantSeq++);
    this.granted.set(waiter.consumer, (this.granted.get(waiter.consumer) ?? 0) + 1);
    this.grantedByMethod[method] += 1;
    const waited = now - waiter.since;
    this.waits.count += 1;
    this.waits.totalMs += waited;
    this.waits.maxMs = Math.max(this.waits.maxMs, waited);
    waiter.cleanup();
    waiter.resolve();
  }

  /** One timer per method; an earlier need replaces a later timer. */
  private arm(method: MessageMethod, at: number): void {
    const lane = this.lanes[method];
    if (!Number.isFinite(at)) {
      this.disarm(lane);
      return;
    }
    if (lane.timer && lane.timerAt !== undefined && lane.timerAt <= at) return;
    lane.timer?.abort();
    const timer = new AbortController();
    lane.timer = timer;
    lane.timerAt = at;
    const delay = Math.max(0, Math.ceil(at - this.clock.now()));
    this.clock.sleep(delay, timer.signal).then(
      () => {
        if (lane.timer !== timer) return;
        lane.timer = undefined;
        lane.timerAt = undefined;
        this.schedule(method);
      },
      () => undefined, // replaced or closed
    );
  }

  private disarm(lane: Lane): void {
    lane.timer?.abort();
    lane.timer = undefined;
    lane.timerAt = undefined;
  }
}
