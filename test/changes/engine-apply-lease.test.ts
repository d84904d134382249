/**
 * Issue 9, defects 1, 2 and 11: a live apply is never recovered (in this
 * process or another), a dead one is recovered within its short lease, and two
 * approvals at the same moment apply the change exactly once.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { applyLeaseKey } from '../../src/changes/apply-lease.js';
import type { ClickOutcome } from '../../src/changes/change.js';
import { type Harness, origin, PROD_ONLY_TAGS, startHarness, storeKinds } from './harness.js';

const REMOVE = {
  operation: 'formation.remove' as const,
  input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
  requester: 'U1',
  origin,
};
const PATCH_PATH = '/api/formation/v1/environments/dev/formations/lobby';

describe.each(storeKinds)('apply leases (%s store)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /** Confirms REMOVE with its PATCH held `latencyMs` in the simulator; resolves once the PATCH is in flight. */
  async function applyWithSlowPatch(latencyMs: number): Promise<{ id: string; done: Promise<ClickOutcome> }> {
    const change = await h.engine.request(REMOVE);
    h.sim.setFaults([{ method: 'PATCH', path: PATCH_PATH, latencyMs, times: 1 }]);
    const done = h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    await h.sim.whenRequests('PATCH', PATCH_PATH);
    return { id: change.id, done };
  }

  it('housekeeping on the applying process itself leaves a live apply alone (defect 1)', async () => {
    h = await startHarness({ store: kind });
    const { id, done } = await applyWithSlowPatch(4_000);
    // The housekeeping tick of this same process, and of another replica, during the PATCH.
    expect(await h.engine.recoverInterrupted()).toEqual([]);
    expect(await h.replica('replica-b').recoverInterrupted()).toEqual([]);
    await h.clock.advance(4_000);
    expect(await done).toMatchObject({ kind: 'applied', change: { status: 'succeeded' } });
    const audit = await h.store.queryAudit({ changeId: id });
    expect(audit.filter((a) => a.action === 'recover')).toEqual([]);
    expect(audit.filter((a) => a.action === 'apply').map((a) => a.outcome)).toEqual(['succeeded']);
    expect(h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.map((v) => v.name)).toEqual(['lobby-1']);
    // The lease went with the apply.
    expect(await h.store.getLease(applyLeaseKey(id))).toBeUndefined();
  });

  it('a slow apply keeps its lease by heartbeat far past the TTL; no replica recovers it (defects 1, 11)', async () => {
    h = await startHarness({ store: kind });
    // Longer than any fixed lease would reasonably be (the old one was 5 minutes).
    const hold = 6 * 60_000;
    const { id, done } = await applyWithSlowPatch(hold);
    // Every beat while the simulator still holds the PATCH; the last advance lets it answer.
    for (let t = 10_000; t < hold; t += 10_000) {
      await h.clock.advance(10_000);
      // The beat renews the lease (over real I/O on PostgreSQL), then parks on the clock again
      // beside the simulator's held PATCH: two sleeps mean this beat is done.
      await h.clock.whenSleeping(2);
      expect((await h.store.getLease(applyLeaseKey(id)))?.expiresAt).toBeGreaterThan(h.clock.now());
      expect(await h.replica('replica-b').recoverInterrupted()).toEqual([]);
    }
    await h.clock.advance(10_000);
    expect(await done).toMatchObject({ kind: 'applied' });
  });

  it('a recovery run while the change is being claimed never takes it (the lease is held before the claim)', async () => {
    h = await startHarness({ store: kind });
    const change = await h.engine.request(REMOVE);
    const [outcome, recovered] = await Promise.all([
      h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' }),
      h.engine.recoverInterrupted(),
    ]);
    expect(outcome.kind).toBe('applied');
    expect(recovered).toEqual([]);
  });
});

const TWO_APPROVALS = `
version: 1
rules:
  - name: two-approvers
    operations: [image.promote]
    approval:
      required: 2
      approvers:
        users: [UAPPROVE1, UAPPROVE2, UAPPROVE3]
        groups: []
`;

describe.each(storeKinds)('approvals at the same moment (%s store, defect 2)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('two approvers clicking together: the change is applied exactly once, never left waiting', async () => {
    h = await startHarness({ store: kind, policy: TWO_APPROVALS });
    // Each round promotes a tag dev lacks: promoting one already there is refused as a no-op.
    for (const tag of PROD_ONLY_TAGS) {
      const change = await h.engine.request({
        operation: 'image.promote',
        input: { image: 'game-server', tag, sourceBranch: 'prod', targetBranch: 'dev' },
        requester: 'U1',
        origin,
      });
      expect(change.status).toBe('awaiting_approval');
      const outcomes = await Promise.all([
        h.engine.approve({ changeId: change.id, user: 'UAPPROVE1', channel: 'C1', team: 'T1' }),
        h.engine.approve({ changeId: change.id, user: 'UAPPROVE2', channel: 'C1', team: 'T1' }),
      ]);
      expect(outcomes.filter((o) => o.kind === 'applied')).toHaveLength(1);
      expect((await h.engine.get(change.id))?.status).toBe('succeeded');
      const applies = (await h.store.queryAudit({ changeId: change.id })).filter((a) => a.action === 'apply');
      expect(applies).toHaveLength(1);
    }
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(5);
  });
});
