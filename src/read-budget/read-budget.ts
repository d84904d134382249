/**
 * The API read budget: a room of its own (ARCHITECTURE.md, "Budgets are
 * rooms of their own") for the list reads that surfaces repeat much faster
 * than the lists change. Type-ahead asks for a whole list on every
 * keystroke, and form reloads ask again for what they read a moment ago; to
 * the hosting API these are the same read. So:
 *
 * - reads of the same list under way at once are one read (coalesced);
 * - a list read lately is answered from a short cache (seconds), so a person
 *   typing costs one read, not one per key;
 * - at most `maxInFlight` distinct reads run at once; beyond that a read is
 *   shed at once (ReadShedError) instead of queueing behind a slow API, since
 *   its asker (Slack's 3 s) cannot wait for a queue anyway.
 *
 * Per process: a cache of lists is a courtesy to the API, not a decision, so
 * replicas need not agree on it (nothing here authorizes or changes).
 */
import type { Clock } from '../runtime/clock.js';

/** A read refused because `maxInFlight` distinct reads were already under way. */
export class ReadShedError extends Error {
  override readonly name = 'ReadShedError';
  constructor(readonly key: string) {
    super(`too many API reads under way; ${key} was not read`);
  }
}

export interface ReadBudgetOptions {
  clock: Pick<Clock, 'now'>;
  /** How long a list read stays good for (ms). */
  cacheMs: number;
  /** Distinct reads allowed under way at once; more are shed. */
  maxInFlight: number;
  /** Told of each read shed (for `harbor_requests_shed_total`). */
  onShed?: (key: string) => void;
  /** Cache entries kept at most (the oldest go first), so many lists cannot grow the heap without end. */
  maxEntries?: number;
}

interface Cached {
  at: number;
  value: unknown;
}

/** Defaults: a few seconds of cache, and room for a burst of type-ahead while the API is slow. */
export const READ_BUDGET_DEFAULTS = { cacheMs: 5_000, maxInFlight: 16, maxEntries: 500 } as const;

/** Coalescing, short-cached, bounded reads, keyed by what they read. */
export class ReadBudget {
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly o: ReadBudgetOptions) {}

  /**
   * The value of `key`: from the cache when read within `cacheMs`, from the
   * read under way when there is one, else from `load` when a slot is free.
   * Throws ReadShedError when none is; `load`'s own errors are not cached.
   */
  read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.cache.get(key);
    const now = this.o.clock.now();
    if (cached && now - cached.at < this.o.cacheMs) return Promise.resolve(cached.value as T);
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    if (this.inFlight.size >= this.o.maxInFlight) {
      this.o.onShed?.(key);
      return Promise.reject(new ReadShedError(key));
    }
    const started = load().then((value) => {
      this.remember(key, value);
      return value;
    });
    const tracked = started.finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, tracked);
    return tracked;
  }

  /** Distinct reads under way now. */
  get reading(): number {
    return this.inFlight.size;
  }

  private remember(key: string, value: unknown): void {
    this.cache.delete(key);
    this.cache.set(key, { at: this.o.clock.now(), value });
    const max = this.o.maxEntries ?? READ_BUDGET_DEFAULTS.maxEntries;
    // Map keeps insertion order: the first keys are the least recently read.
    while (this.cache.size > max) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
  }
}
