/**
 * Filters composed into one function, as hono's `compose` and bolt-js's
 * middleware chain do: each filter gets the request's context and `next`,
 * and may act before it, after it, around it (a timer, a try), or instead of
 * it (a shed request never reaches its route). Calling `next` twice is a bug
 * that would run the rest of the chain twice, so it throws.
 */

/** One step of a chain: act on `c`, and call `next` to go on (or not, to stop there). */
export type Filter<C> = (c: C, next: () => Promise<void>) => Promise<void>;

/** Runs `filters` in order on one context; the last filter's `next` does nothing. */
export function compose<C>(filters: readonly Filter<C>[]): (c: C) => Promise<void> {
  return (c) => {
    let last = -1;
    const dispatch = (i: number): Promise<void> => {
      if (i <= last) return Promise.reject(new Error('next() called twice in one filter'));
      last = i;
      const filter = filters[i];
      return filter ? filter(c, () => dispatch(i + 1)) : Promise.resolve();
    };
    return dispatch(0);
  };
}
