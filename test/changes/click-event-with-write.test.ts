/**
 * A click's `clicked` event commits with the click's write (issue 39): the
 * outcome of a click that moved its change (applied, rejected, cancelled)
 * is an outbox row in the same transaction as that move, so the outbox holds
 * it if and only if the move happened; a click that wrote nothing (refused)
 * is published on its own after it. On both stores.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Store, TransactionStore } from '../../src/store/types.js';
import { click, type Harness, origin, startHarness, storeKinds } from './harness.js';

const PROMOTE_TO_PROD = {
  operation: 'image.promote' as const,
  input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
  requester: 'U1',
  origin,
};

/** What each store call wrote: `transition:<to>` and `outbox:<kind>`, each tagged with its transaction (0: none). */
function recordingStore(store: Store, o: { refuseOutbox?: boolean } = {}) {
  const writes: string[] = [];
  let txs = 0;
  const wrap = <T extends object>(inner: T, tx: number): T =>
    new Proxy(inner, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        if (key === 'atomically')
          return (work: (t: TransactionStore) => unknown) =>
            value.call(target, (t: TransactionStore) => work(wrap(t, ++txs)));
        if (key === 'transitionChange')
          return (...args: unknown[]) => {
            writes.push(`${tx}:transition:${String(args[2])}`);
            return value.apply(target, args);
          };
        if (key === 'appendOutbox')
          return (entry: { payload: { kind: string } }) => {
            if (o.refuseOutbox) throw new Error('the outbox refuses the row');
            writes.push(`${tx}:outbox:${entry.payload.kind}`);
            return value.call(target, entry);
          };
        return value.bind(target);
      },
    });
  return {
    store: wrap(store, 0),
    writes,
    /** Forgets what was written; transactions count from 1 again. */
    reset: () => {
      writes.length = 0;
      txs = 0;
    },
  };
}

describe.each(storeKinds)('a click and its event (%s)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  const engineOn = (store: Store) => h.replica('recorded', store);

  it('commits the outcome of a click that moved its change with the move; a refused one after it', async () => {
    h = await startHarness({ store: kind });
    const recorded = recordingStore(h.store);
    const engine = engineOn(recorded.store);
    // Rejected and cancelled: the close and its outcome in one transaction.
    for (const [act, outcome] of [
      ['reject', 'rejected'],
      ['cancel', 'cancelled'],
    ] as const) {
      const change = await h.engine.request(PROMOTE_TO_PROD);
      recorded.reset();
      const user = act === 'reject' ? 'U2' : 'U1';
      expect((await engine[act](click(change.id, user))).kind).toBe(outcome);
      expect(recorded.writes).toEqual(['1:transition:cancelled', '1:outbox:clicked']);
    }

    const promotion = await h.engine.request(PROMOTE_TO_PROD);
    // Refused (the requester cannot confirm what needs approval): nothing written, told on its own.
    recorded.reset();
    expect((await engine.confirm(click(promotion.id))).kind).toBe('refused');
    expect(recorded.writes).toEqual(['0:outbox:clicked']);
    // Approved and applied: claimed with its event, then settled with the outcome, each in one transaction.
    recorded.reset();
    expect((await engine.approve(click(promotion.id, 'U2'))).kind).toBe('applied');
    expect(recorded.writes).toEqual([
      '0:transition:approved',
      '1:transition:applying',
      '1:outbox:claimed',
      '2:transition:succeeded',
      '2:outbox:clicked',
    ]);
    const rows = await h.store.readOutbox(0, 100);
    expect(rows.map((r) => r.payload as { kind: string; outcome?: { kind: string } }).at(-1)).toMatchObject({
      kind: 'clicked',
      outcome: { kind: 'applied' },
    });
  });

  it('leaves the change as it was when the outbox refuses the outcome: both or neither', async () => {
    h = await startHarness({ store: kind });
    const engine = engineOn(recordingStore(h.store, { refuseOutbox: true }).store);
    const change = await h.engine.request(PROMOTE_TO_PROD);
    await expect(engine.cancel(click(change.id))).rejects.toThrow('the outbox refuses the row');
    expect((await h.store.getChange(change.id))?.status).toBe('awaiting_approval');
    const rows = await h.store.readOutbox(0, 100);
    expect(rows.filter((r) => (r.payload as { kind: string }).kind === 'clicked')).toEqual([]);
  });
});
