/**
 * The stand-in's 429s. Forced ones let a test make the next N calls to a
 * method fail; enforced ones apply Slack's documented budgets as sliding
 * windows on an injected clock, so a test can show that the bot stays under
 * them (or honours Retry-After) without waiting in real time.
 */
import type { Args } from './http-body.js';

/** The only part of a clock the stand-in needs (src/runtime/clock.ts ManualClock fits). */
export interface StandInClock {
  now(): number;
}

export interface ForcedRateLimit {
  /** How many upcoming calls to answer with 429. */
  count: number;
  /** The Retry-After header value. */
  retryAfterSeconds: number;
}

export interface EnforcedLimits {
  /** Time for the windows; defaults to the stand-in's clock. */
  clock?: StandInClock;
  /** chat.update calls per minute for the whole workspace (Slack Tier 3: 50). */
  chatUpdatePerMinute?: number;
  /** chat.postMessage calls per second per channel (Slack: about 1). */
  postMessagePerChannelPerSecond?: number;
  /**
   * Seconds a channel's posts are counted over (default 1: strictly one a second). Slack allows
   * "short bursts": with 2, two posts back to back are fine as long as any 2 s hold at most 2.
   */
  postMessageBurstSeconds?: number;
  /** Per-minute budgets for other methods, per workspace (e.g. `{ 'chat.delete': 50 }`). */
  perMinute?: Record<string, number>;
}

export interface RateLimitedCall {
  method: string;
  /** The window that was full: the method, plus `:<channel>` for per-channel limits. */
  key: string;
  reason: 'forced' | 'enforced';
  retryAfterSeconds: number;
  at: number;
}

interface Window {
  limit: number;
  windowMs: number;
  hits: number[];
}

/** Decides, per call, whether to answer 429, and remembers every 429 it answered. */
export class RateLimiter {
  readonly rateLimited: RateLimitedCall[] = [];
  private forced = new Map<string, ForcedRateLimit>();
  private limits: EnforcedLimits | undefined;
  private windows = new Map<string, Window>();

  constructor(private readonly defaultClock: StandInClock) {}

  /** Answers the next `count` calls to `method` with 429 and `Retry-After`. */
  force(method: string, limit: ForcedRateLimit): void {
    this.forced.set(method, { ...limit });
  }

  /** Starts (or replaces) enforced budgets; windows start empty. */
  enforce(limits: EnforcedLimits): void {
    this.limits = limits;
    this.windows.clear();
  }

  /** Stops enforcing budgets (forced 429s stay). */
  relax(): void {
    this.limits = undefined;
    this.windows.clear();
  }

  /** The Retry-After seconds if this call must be refused; otherwise counts it and returns undefined. */
  check(method: string, args: Args): number | undefined {
    const forced = this.forced.get(method);
    if (forced && forced.count > 0) {
      forced.count -= 1;
      this.note(method, method, 'forced', forced.retryAfterSeconds, this.defaultClock.now());
      return forced.retryAfterSeconds;
    }
    const limits = this.limits;
    if (!limits) return undefined;
    const window = this.windowFor(method, args, limits);
    if (!window) return undefined;
    const now = (limits.clock ?? this.defaultClock).now();
    const { key, state } = window;
    state.hits = state.hits.filter((t) => t > now - state.windowMs);
    if (state.hits.length >= state.limit) {
      // The window frees up when its oldest hit falls out of it.
      const freeAt = (state.hits[0] ?? now) + state.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
      this.note(method, key, 'enforced', retryAfterSeconds, now);
      return retryAfterSeconds;
    }
    state.hits.push(now);
    return undefined;
  }

  private windowFor(
    method: string,
    args: Args,
    limits: EnforcedLimits,
  ): { key: string; state: Window } | undefined {
    let key = method;
    let limit: number | undefined;
    let windowMs = 60_000;
    if (method === 'chat.update') limit = limits.chatUpdatePerMinute;
    if (method === 'chat.postMessage' && limits.postMessagePerChannelPerSecond !== undefined) {
      key = `${method}:${String(args.channel ?? '')}`;
      const seconds = limits.postMessageBurstSeconds ?? 1;
      limit = limits.postMessagePerChannelPerSecond * seconds;
      windowMs = 1000 * seconds;
    }
    limit ??= limits.perMinute?.[method];
    if (limit === undefined) return undefined;
    let state = this.windows.get(key);
    if (!state) {
      state = { limit, windowMs, hits: [] };
      this.windows.set(key, state);
    }
    return { key, state };
  }

  private note(method: string, key: string, reason: RateLimitedCall['reason'], retry: number, at: number) {
    this.rateLimited.push({ method, key, reason, retryAfterSeconds: retry, at });
  }
}
