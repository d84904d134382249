/**
 * A real store that counts the calls made to it, by method: tests use it to
 * hold a flow to a fixed number of reads however many changes it handles.
 */
import type { Store } from '../../src/store/types.js';

export interface CountingStore {
  store: Store;
  /** Calls per method name since the last reset. */
  calls: Map<string, number>;
  /** Total calls since the last reset. */
  total(): number;
  reset(): void;
}

/** Wraps `store`; every method still runs on it, and each call is counted (inside a transaction's too). */
export function countingStore(store: Store): CountingStore {
  const calls = new Map<string, number>();
  const counting = <T extends object>(inner: T): T =>
    new Proxy(inner, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function' || typeof key !== 'string') return value;
        return (...args: unknown[]) => {
          calls.set(key, (calls.get(key) ?? 0) + 1);
          // A transaction's own store counts into the same tally.
          if (key === 'atomically') {
            const work = args[0] as (tx: object) => unknown;
            return value.call(target, (tx: object) => work(counting(tx)));
          }
          return value.apply(target, args);
        };
      },
    });
  const counted = counting(store);
  return {
    store: counted,
    calls,
    total: () => [...calls.values()].reduce((a, b) => a + b, 0),
    reset: () => calls.clear(),
  };
}
