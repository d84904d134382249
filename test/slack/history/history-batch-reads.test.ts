/**
 * `/harbor history` reads a page's changes and their approvals in a fixed
 * number of store calls (one audit read, one change read, one approvals
 * read), not one change and one approvals query per audit entry.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { historyPage } from '../../../src/changes/history-query.js';
import { type Harness, origin, startHarness, storeKinds } from '../../changes/harness.js';
import { countingStore } from '../../support/counting-store.js';

const PROMOTE_TO_PROD = {
  operation: 'image.promote' as const,
  input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
  requester: 'U1',
  origin,
};

describe.each(storeKinds)('history batch reads (%s)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /** `n` changes, each approved once and then rejected: one outcome entry apiece. */
  async function rejected(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      await h.clock.advance(1);
      const change = await h.engine.request(PROMOTE_TO_PROD);
      await h.store.addApproval({
        changeId: change.id,
        userId: 'U9',
        decision: 'approve',
        at: h.clock.now(),
      });
      await h.store.appendAudit({
        at: h.clock.now(),
        changeId: change.id,
        actor: 'U2',
        workspace: origin.workspace,
        action: 'reject',
      });
      ids.push(change.id);
    }
    return ids;
  }

  it('reads a page in three store calls, whatever its size', async () => {
    h = await startHarness({ store: kind });
    const counted = countingStore(h.store);
    const few = await rejected(2);
    const small = await historyPage(counted.store, { workspace: origin.workspace });
    expect(small.items.map((i) => i.change.id)).toEqual([...few].reverse());
    expect(small.items[0]?.change.approvals.map((a) => a.userId)).toEqual(['U9']);
    const forFew = counted.total();
    counted.reset();

    const more = await rejected(6);
    const big = await historyPage(counted.store, { workspace: origin.workspace });
    expect(big.items.map((i) => i.change.id)).toEqual([...few, ...more].reverse());
    expect(big.items.every((i) => i.change.approvals.length === 1)).toBe(true);
    expect(counted.total()).toBe(forFew);
    expect(Object.fromEntries(counted.calls)).toEqual({ queryAudit: 1, listChanges: 1, listApprovalsFor: 1 });
  });

  it('leaves out other workspaces’ entries without reading their changes', async () => {
    h = await startHarness({ store: kind });
    const counted = countingStore(h.store);
    const ours = await rejected(1);
    const page = await historyPage(counted.store, { workspace: 'T-other' });
    expect(page.items).toEqual([]);
    expect(ours).toHaveLength(1);
    expect(counted.calls.get('listChanges')).toBeUndefined();
  });
});
