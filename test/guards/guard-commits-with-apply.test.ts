/**
 * A guarded change's guard commits with its apply's settlement (issue 42,
 * noted open last stop): the guard row is written in the transaction that
 * records the change applied, so no change is ever recorded applied without
 * its guard. A store that refuses the guard row refuses the settlement with
 * it: the change stays applying, the settlement is held (pending-records.ts),
 * and the next pass stores both. On both stores.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { RequestInput } from '../../src/changes/engine/options.js';
import type { Store, TransactionStore } from '../../src/store/types.js';
import { click, type Harness, origin, startHarness, storeKinds } from '../changes/harness.js';

const POLICY = `
rules:
  - name: dev-rollouts
    operations: [armada.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 15m }
  - operations: ['*']
    approval: { mode: confirm }
`;
const MINUTE = 60_000;

const rollOut: RequestInput = {
  operation: 'armada.image',
  input: { environment: 'dev', name: 'duel', image: 'game-server', tag: '1.1.0' },
  requester: 'U1',
  origin,
};

/** The store, with each transaction's writes recorded as `<tx>:<write>`, and the guard row refused while `refuse` holds. */
function watchedStore(store: Store) {
  const writes: string[] = [];
  const state = { refuse: false, txs: 0 };
  const inTx = (tx: TransactionStore, n: number): TransactionStore => ({
    ...tx,
    transitionChange: (id, from, to, patch, opts) => {
      writes.push(`${n}:transition:${to}`);
      return tx.transitionChange(id, from, to, patch, opts);
    },
    createGuard: async (g) => {
      if (state.refuse) throw new Error('the store refuses the guard row');
      writes.push(`${n}:guard`);
      return tx.createGuard(g);
    },
  });
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === 'atomically')
        return (work: (t: TransactionStore) => unknown) =>
          target.atomically((t) => work(inTx(t, ++state.txs)) as Promise<unknown>);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, writes, state };
}

describe.each(storeKinds)("a guard and its change's apply (%s)", (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  const engineOn = (store: Store) => h.replica('watched', store);

  it('writes the guard in the same transaction that records the change applied', async () => {
    h = await startHarness({ store: kind, policy: POLICY });
    const watched = watchedStore(h.store);
    const engine = engineOn(watched.store);
    const change = await engine.request(rollOut);
    const appliedAt = h.clock.now();
    const out = await engine.confirm(click(change.id));
    expect(out.kind).toBe('applied');
    const settled = watched.writes.filter((w) => w.endsWith(':transition:succeeded') || w.endsWith(':guard'));
    expect(settled).toHaveLength(2);
    const [transition, guard] = settled;
    expect(transition?.split(':')[0]).toBe(guard?.split(':')[0]);
    expect(transition?.startsWith('0:')).toBe(false);
    expect(await h.store.getGuard(change.id)).toMatchObject({
      state: 'watching',
      windowEnd: appliedAt + 15 * MINUTE,
    });
  });

  it('leaves the change applying when the guard row is refused; the held record later stores both', async () => {
    h = await startHarness({ store: kind, policy: POLICY });
    const watched = watchedStore(h.store);
    const engine = engineOn(watched.store);
    const change = await engine.request(rollOut);
    watched.state.refuse = true;
    // The API took the write: the clicker hears it applied, its recording pending (pending-records.ts).
    const out = await engine.confirm(click(change.id));
    expect(out).toMatchObject({ kind: 'applied', change: { status: 'succeeded', recordPending: true } });
    // Never stored applied without its guard.
    expect((await h.store.getChange(change.id))?.status).toBe('applying');
    expect(await h.store.getGuard(change.id)).toBeUndefined();

    watched.state.refuse = false;
    const storedAt = h.clock.now();
    const stored = await engine.recoverInterrupted();
    expect(stored.map((c) => [c.id, c.status])).toEqual([[change.id, 'succeeded']]);
    // Watched from when its apply was stored: a window that starts late ends late, never early.
    expect(await h.store.getGuard(change.id)).toMatchObject({
      state: 'watching',
      windowEnd: storedAt + 15 * MINUTE,
    });
  });
});
