import { afterEach, describe, expect, it } from '@jest/globals';
import { type Harness, origin, startHarness } from './harness.js';

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
  - name: dev-open
    operations: ["*"]
    target: { environment: "dev" }
    approval: { mode: confirm }
    expires: 30m
`;

describe('change lifecycle: confirm, approve, reject, cancel, expire', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('built-in default: a promotion into prod needs one approval by someone else; self-approval is refused', async () => {
    h = await startHarness();
    const change = await h.engine.request(PROMOTE_TO_PROD);
    expect(change.status).toBe('awaiting_approval');
    expect(change.requirement).toMatchObject({ mode: 'approval', required: 1 });

    const confirm = await h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(confirm).toMatchObject({ kind: 'refused', message: expect.stringMatching(/needs approval/) });
    const self = await h.engine.approve({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(self.kind).toBe('refused');
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);

    const other = await h.engine.approve({ changeId: change.id, user: 'U2', channel: 'C1', team: 'T1' });
    expect(other.kind).toBe('applied');
    expect(other.change).toMatchObject({ status: 'succeeded', confirmedBy: 'U2' });
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);
    const again = await h.engine.approve({ changeId: change.id, user: 'U3', channel: 'C1', team: 'T1' });
    expect(again).toMatchObject({ kind: 'stale', reason: { kind: 'succeeded', by: 'U2' } });
  });

  it('counts approvals from distinct approvers only, re-checking the policy on every click', async () => {
    const groups: Record<string, string[]> = { S0DEVS: ['U1'], S0SRE: ['U2', 'U3', 'U4'] };
    h = await startHarness({ policy: POLICY, groups });
    const change = await h.engine.request(PROMOTE_TO_PROD);
    expect(change.requirement).toMatchObject({ mode: 'approval', required: 2 });

    const first = await h.engine.approve({ changeId: change.id, user: 'U2', channel: 'C1', team: 'T1' });
    expect(first).toMatchObject({ kind: 'approval_recorded', count: 1, required: 2 });
    const twice = await h.engine.approve({ changeId: change.id, user: 'U2', channel: 'C1', team: 'T1' });
    expect(twice).toMatchObject({ kind: 'approval_recorded', count: 1, required: 2 });
    const outsider = await h.engine.approve({ changeId: change.id, user: 'U9', channel: 'C1', team: 'T1' });
    expect(outsider.kind).toBe('refused');

    // U3 leaves the SRE group between the request and the click: the click is judged by today's policy.
    groups.S0SRE = ['U2', 'U4'];
    const gone = await h.engine.approve({ changeId: change.id, user: 'U3', channel: 'C1', team: 'T1' });
    expect(gone.kind).toBe('refused');
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(0);

    const second = await h.engine.approve({ changeId: change.id, user: 'U4', channel: 'C1', team: 'T1' });
    expect(second.kind).toBe('applied');
    expect(second.change.approvals.map((a) => a.userId).sort()).toEqual(['U2', 'U4']);
  });

  it('refuses requests the policy does not allow, saying which rule is missing', async () => {
    h = await startHarness({ policy: POLICY, groups: { S0DEVS: ['U1'] } });
    await expect(h.engine.request({ ...PROMOTE_TO_PROD, requester: 'U7' })).rejects.toThrow(
      'You are not allowed to promote images from dev into branch prod: policy rule `prod-promotions` lets only group S0DEVS do it; ask one of them to request it.',
    );
    await expect(
      h.engine.request({
        operation: 'vessel.delete',
        input: { environment: 'prod', vessel: 'arena-1' },
        requester: 'U1',
        origin,
      }),
    ).rejects.toThrow(/No policy rule lets anyone delete vessel arena-1 in environment prod\./);
    const refused = await h.store.queryAudit({ actor: 'U7' });
    expect(refused.map((a) => a.action)).toEqual(['refused']);
  });

  it('a rejection closes the change; later clicks say so politely', async () => {
    h = await startHarness();
    const change = await h.engine.request(PROMOTE_TO_PROD);
    const rejected = await h.engine.reject({ changeId: change.id, user: 'U2', channel: 'C1', team: 'T1' });
    expect(rejected).toMatchObject({ kind: 'rejected', change: { status: 'cancelled' } });
    // Who rejected is data; nothing stored is words (renderers write them and draw the mention).
    expect((await h.store.getChange(change.id))?.error).toEqual({ kind: 'rejected', by: 'U2' });
    const late = await h.engine.approve({ changeId: change.id, user: 'U3', channel: 'C1', team: 'T1' });
    expect(late).toMatchObject({ kind: 'stale', reason: { kind: 'rejected', by: 'U2' } });
  });

  it('only the requester confirms a confirm-mode change; cancel makes later clicks stale', async () => {
    h = await startHarness();
    const change = await h.engine.request({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-1' },
      requester: 'U1',
      origin,
    });
    const stranger = await h.engine.confirm({ changeId: change.id, user: 'U2', channel: 'C1', team: 'T1' });
    expect(stranger.kind).toBe('refused');
    const cancelled = await h.engine.cancel({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(cancelled.kind).toBe('cancelled');
    const late = await h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(late).toMatchObject({ kind: 'stale', reason: { kind: 'cancelled', by: 'U1' } });
    expect(h.sim.countRequests('PATCH', '/api/formation/v1/environments/dev/formations/lobby')).toBe(0);
  });

  it('expires pending changes after their time; a click after that applies nothing', async () => {
    h = await startHarness();
    const change = await h.engine.request({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
      requester: 'U1',
      origin,
    });
    expect(change.expiresAt - change.createdAt).toBe(30 * 60_000);
    await h.clock.advance(31 * 60_000);
    const late = await h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(late).toMatchObject({
      kind: 'stale',
      reason: { kind: 'expired', at: Date.UTC(2026, 0, 1, 0, 30) },
    });
    expect(h.sim.countRequests('PATCH', '/api/core/v1/environments/dev/regions')).toBe(0);

    const other = await h.engine.request({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'cloud', scheduling: 'Packed' },
      requester: 'U1',
      origin,
    });
    await h.clock.advance(31 * 60_000);
    const expired = await h.engine.expireDue();
    expect(expired.map((c) => c.id)).toEqual([other.id]);
    const audit = await h.store.queryAudit({ changeId: other.id });
    expect(audit.map((a) => a.action)).toContain('expire');
  });

  it('lists the changes a user can approve', async () => {
    h = await startHarness();
    const change = await h.engine.request(PROMOTE_TO_PROD);
    expect((await h.engine.approvableBy('U2', 'C1', 'T1')).map((c) => c.id)).toEqual([change.id]);
    expect(await h.engine.approvableBy('U1', 'C1', 'T1')).toEqual([]);
  });
});
