/**
 * Issue 22, point 3 (the gap left): a change left `approved` but not applied
 * (its approving replica died between the approval and the claim) can be
 * confirmed by its requester. That confirm recounts the approvals with
 * today's membership: an approver removed from the group no longer counts,
 * and the change goes back to awaiting approval instead of applying. On both
 * stores.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { type Harness, origin, startHarness, storeKinds } from './harness.js';

const PROMOTE_TO_PROD = {
  operation: 'image.promote' as const,
  input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
  requester: 'U1',
  origin,
};

const POLICY = `
rules:
  - name: prod-promotions
    operations: [image.promote]
    target: { branch: "prod*" }
    requesters: { groups: [S0DEVS] }
    approval: { required: 2, approvers: { groups: [S0SRE] } }
    expires: 1h
`;

describe.each(storeKinds)('confirming an approved change (%s)', (store) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /** Two approvals stored and the change `approved`, as a replica leaves it when it dies before its claim. */
  async function approvedButNotApplied(groups: Record<string, string[]>) {
    h = await startHarness({ policy: POLICY, groups, store });
    const change = await h.engine.request(PROMOTE_TO_PROD);
    await h.engine.approve({ changeId: change.id, user: 'U2', channel: 'C1', team: 'T1' });
    const now = h.clock.now();
    await h.store.addApproval({ changeId: change.id, userId: 'U3', decision: 'approve', at: now });
    expect(
      await h.store.transitionChange(change.id, ['awaiting_approval'], 'approved', {}, { now }),
    ).toBeTruthy();
    return change;
  }

  it('does not apply when an approver has left the group since; the change awaits approval again', async () => {
    const groups: Record<string, string[]> = { S0DEVS: ['U1'], S0SRE: ['U2', 'U3', 'U4'] };
    const change = await approvedButNotApplied(groups);
    groups.S0SRE = ['U2', 'U4'];

    const confirm = await h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(confirm).toMatchObject({ kind: 'refused', message: expect.stringMatching(/1 of 2 approvals/) });
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);
    expect((await h.engine.get(change.id))?.status).toBe('awaiting_approval');

    // A current approver's vote makes two again, and the change applies.
    const second = await h.engine.approve({ changeId: change.id, user: 'U4', channel: 'C1', team: 'T1' });
    expect(second.kind).toBe('applied');
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);
  });

  it('applies when the approvals still count', async () => {
    const change = await approvedButNotApplied({ S0DEVS: ['U1'], S0SRE: ['U2', 'U3'] });
    const confirm = await h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(confirm.kind).toBe('applied');
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);
  });
});
