/**
 * Which workspaces may act (issue 9, defect 6), decided by the policy alone:
 * without a list, only the change's own workspace; with `workspaces:`, the
 * listed ones, for requests and clicks alike.
 */
import { describe, expect, it } from '@jest/globals';
import { DEFAULT_POLICY_YAML } from '../../src/policy/default-policy.js';
import { PolicyError, parsePolicy } from '../../src/policy/index.js';
import { DEV1, fakeDirectory, GENERAL_CHANNEL, HOME_TEAM, SRE1 } from './fixtures.js';

const PARTNER = 'T0PARTNER1';
const devChange = {
  channel: GENERAL_CHANNEL,
  requester: DEV1,
  operation: 'vessel.create' as const,
  target: { environment: 'dev' },
  workspace: HOME_TEAM,
};
const prodApproval = {
  ...devChange,
  operation: 'vessel.delete' as const,
  target: { environment: 'prod' },
  approvals: [],
  now: 0,
  expiresAt: 60_000,
};

describe('the built-in default policy', () => {
  const policy = parsePolicy(DEFAULT_POLICY_YAML, fakeDirectory().ctx, 'built-in default');

  it('lets the requester confirm and cancel only from the change’s workspace', async () => {
    expect(await policy.authorizeConfirm({ ...devChange, user: DEV1, team: HOME_TEAM })).toMatchObject({
      allowed: true,
    });
    for (const decide of [policy.authorizeConfirm, policy.authorizeCancel]) {
      expect(await decide({ ...devChange, user: DEV1, team: PARTNER })).toEqual({
        allowed: false,
        reason: expect.stringMatching(/requested in another Slack workspace/),
      });
    }
  });

  it('refuses an approval from another workspace, even by someone anyone-may-approve admits', async () => {
    expect(await policy.authorizeApproval({ ...prodApproval, user: SRE1, team: PARTNER })).toMatchObject({
      allowed: false,
    });
    expect(await policy.authorizeApproval({ ...prodApproval, user: SRE1, team: HOME_TEAM })).toMatchObject({
      allowed: true,
      satisfied: true,
    });
  });

  it('lets a request come from any workspace (the change then belongs to it)', async () => {
    const { workspace: _, ...request } = devChange;
    expect(await policy.authorizeRequest({ ...request, user: DEV1, team: PARTNER })).toMatchObject({
      allowed: true,
    });
  });
});

describe('a policy with workspaces', () => {
  const policy = parsePolicy(
    `${DEFAULT_POLICY_YAML}\nworkspaces: [${HOME_TEAM}, ${PARTNER}]\n`,
    fakeDirectory().ctx,
    '/etc/harbor/policy.yml',
  );

  it('lets a listed workspace act on another listed workspace’s change', async () => {
    expect(await policy.authorizeApproval({ ...prodApproval, user: SRE1, team: PARTNER })).toMatchObject({
      allowed: true,
    });
  });

  it('refuses an unlisted workspace, naming where the list is', async () => {
    const decision = await policy.authorizeCancel({ ...devChange, user: DEV1, team: 'T0STRANGER' });
    expect(decision).toEqual({
      allowed: false,
      reason:
        'Your Slack workspace (T0STRANGER) is not one the policy allows: it lists 2 workspaces under `workspaces`.',
    });
    const { workspace: _, ...request } = devChange;
    expect(await policy.authorizeRequest({ ...request, user: DEV1, team: 'T0STRANGER' })).toMatchObject({
      allowed: false,
    });
  });

  it('rejects a malformed workspace id at load time', () => {
    const load = () =>
      parsePolicy(`${DEFAULT_POLICY_YAML}\nworkspaces: [acme]\n`, fakeDirectory().ctx, 'p.yml');
    expect(load).toThrow(PolicyError);
    expect(load).toThrow(/workspaces\[0\]: expected a Slack workspace \(team\) id/);
  });
});
