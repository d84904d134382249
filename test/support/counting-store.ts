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

/** Wraps `store`; every method still runs on it, and each call is counted. */
export function countingStore(store: Store): CountingStore {
  const calls = new Map<string, number>();
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        return value.apply(target, args);
      };
    },
  });
  return {
    store: counted,
    calls,
    total: () => [...calls.values()].reduce((a, b) => a + b, 0),
    reset: () => calls.clear(),
  };
}
