/**
 * One workspace's budget for the message writes log tails make (named for
 * what it paces, not for the platform; the limits are Slack's). chat.update is
 * Tier 3 (about 50 a minute for the whole workspace) and chat.postMessage
 * about one a second per channel, so tails must not each pace themselves:
 * they ask this scheduler for a slot and it hands slots out fairly. The
 * least recently served waiting consumer goes first, so one tail refreshes
 * about every 1.3 s and thirty tails each get an equal, slower share. A 429
 * pauses the method for everyone, as Slack means it.
 *
 * With several replicas the budget is still the workspace's: given the
 * workspace's SharedSlots (shared-slots.ts), each grant is also drawn from
 * the rate gates in the store, this replica paces its tails at its share of
 * the rate (by how many tails each replica has wanting slots), and a 429
 * pauses the method on every replica. Without it (tests, benches) the
 * budget is the single replica's whole rate, as before.
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
import type { SharedSlots } from './shared-slots.js';

export {
  type AcquireRequest,
  BudgetError,
  type BudgetOptions,
  type BudgetStats,
  type MessageMethod,
} from './budget-types.js';

interface Waiter {
  consumer: string;
  /** Whose turn the slot spends (AcquireRequest.share). */
  share: string;
  channel: string;
  since: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  cleanup: () => void;
}

interface Lane {
  /** This replica's pace: the whole rate alone, its share of it with shared slots. */
  gate: RateGate;
  baseIntervalMs: number;
  /** A slot is being drawn from the shared gates (one at a time per method); its answer schedules again. */
  drawing: boolean;
  /** The shared gate said no until then. */
  sharedOpenAt: number;
  /** When each share last asked: the demand this replica reports to the others. */
  asked: Map<string, number>;
  /** When to report the demand next, and whether a report is under way. */
  reportAt: number;
  reporting: boolean;
  waiters: Waiter[];
  /** Grant order per share; lower = served longer ago. */
  lastGrant: Map<string, number>;
  timer?: AbortController;
  timerAt?: number;
  pausedUntil?: number;
}

const METHODS: readonly MessageMethod[] = ['chat.update', 'chat.postMessage'];

/** How often a busy replica tells the others its demand (its row lives 10 s), and how long an ask counts in it. */
const DEMAND_EVERY_MS = 2_000;
const DEMAND_WINDOW_MS = 30_000;
/** A replica's share never paces it slower than this fraction of the rate (a tail of a thousand still moves). */
const MIN_SHARE = 0.001;

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
  /** Calls to the shared slots under way, and who waits for there to be none. */
  private pending = 0;
  private idleWaiters: (() => void)[] = [];

  /** `shared`: the workspace's slots as every replica shares them (absent: this replica is alone). */
  constructor(
    options: BudgetOptions,
    private readonly shared?: SharedSlots,
  ) {
    this.clock = options.clock;
    const now = this.clock.now();
    const lane = (perMinute: number, burst: number): Lane => ({
      gate: new RateGate(60_000 / perMinute, burst, now),
      baseIntervalMs: 60_000 / perMinute,
      drawing: false,
      sharedOpenAt: Number.NEGATIVE_INFINITY,
      asked: new Map(),
      reportAt: Number.NEGATIVE_INFINITY,
      reporting: false,
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
    const share = request.share ?? consumer;
    lane.asked.set(share, this.clock.now());
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        lane.waiters = lane.waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
        this.schedule(method);
      };
      const waiter: Waiter = {
        consumer,
        share,
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
    // Every replica pauses: the limit Slack enforced is the workspace's.
    if (this.shared) this.track(this.shared.hold(method, until, channel));
    this.schedule(method);
  }

  /** Whether a call to the shared slots is under way. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once no call to the shared slots is under way (tests move their clock only then). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops a finished consumer's bookkeeping (its waiters must have been aborted). */
  forget(consumer: string): void {
    this.granted.delete(consumer);
    for (const method of METHODS) {
      this.lanes[method].lastGrant.delete(consumer);
      this.lanes[method].asked.delete(consumer);
    }
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
      if (lane.drawing) return;
      const now = this.clock.now();
      this.reportDemand(method, now);
      const laneReady = Math.max(lane.gate.readyAt(), lane.sharedOpenAt);
      if (laneReady > now) {
        this.arm(method, laneReady);
        return;
      }
      const { pick, nextAt } = this.pickWaiter(method, now);
      if (!pick) {
        this.arm(method, nextAt);
        return;
      }
      if (!this.shared) {
        this.grant(method, pick, now);
        continue;
      }
      this.draw(method, pick, this.shared);
      return;
    }
  }

  /** Draws the slot for `waiter` from the shared gates; their answer grants it or says when to ask again. */
  private draw(method: MessageMethod, waiter: Waiter, shared: SharedSlots): void {
    const lane = this.lanes[method];
    lane.drawing = true;
    const drawn = shared.take(method, waiter.channel, 'tail').catch(
      // SharedSlots fall back on their own; should one still fail, ask again in a second.
      () => ({ taken: false, retryAt: this.clock.now() + 1000 }) as const,
    );
    this.track(
      drawn.then((answer) => {
        lane.drawing = false;
        if (this.closed) return;
        if (!answer.taken) lane.sharedOpenAt = answer.retryAt;
        // A waiter that gave up meanwhile leaves its slot unused: erring on the side of Slack's limit.
        else if (lane.waiters.includes(waiter)) this.grant(method, waiter, this.clock.now());
        this.schedule(method);
      }),
    );
  }

  /** Every 2 s while busy: tells the other replicas how many consumers want slots here, and takes the share that leaves this replica. */
  private reportDemand(method: MessageMethod, now: number): void {
    const lane = this.lanes[method];
    if (!this.shared || lane.reporting || now < lane.reportAt) return;
    lane.reporting = true;
    lane.reportAt = now + DEMAND_EVERY_MS;
    const wanting = new Set(lane.waiters.map((w) => w.share));
    for (const [share, at] of lane.asked) {
      if (at > now - DEMAND_WINDOW_MS) wanting.add(share);
      else lane.asked.delete(share);
    }
    const reported = this.shared.share(method, wanting.size).catch(() => 1);
    this.track(
      reported.then((share) => {
        lane.reporting = false;
        const interval = lane.baseIntervalMs / Math.min(1, Math.max(MIN_SHARE, share));
        if (interval !== lane.gate.intervalMs) lane.gate.retune(interval);
        this.schedule(method);
      }),
    );
  }

  /** Counts a call to the shared slots until it settles (see idle()). */
  private track(call: Promise<unknown>): void {
    this.pending += 1;
    const settled = () => {
      this.pending -= 1;
      if (this.pending === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    };
    // Every call tracked here handles its own failure; this only notes that it ended.
    call.then(settled, settled);
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
      // Never served = -1, so a new tail gets its first refresh before busy ones get another;
      // two waiters of one share (a tail's refresh and a freeze) go in the order they came.
      const order = lane.lastGrant.get(w.share) ?? -1;
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
    lane.lastGrant.set(waiter.share, this.grantSeq++);
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
