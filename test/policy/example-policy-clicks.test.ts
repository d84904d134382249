/**
 * examples/policy.yml on clicks: approvals of prod deletes (two distinct SREs,
 * never the requester, expired requests refused), confirm and cancel, each
 * re-checked against current group membership.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import type { Policy } from '../../src/policy/index.js';
import {
  DEV1,
  DEV2,
  devEnv,
  type FakeDirectory,
  fakeDirectory,
  GENERAL_CHANNEL,
  HOME_TEAM,
  HOUR,
  loadExamplePolicy,
  OUTSIDER,
  PROD_CHANNEL,
  prodDelete,
  SRE_GROUP,
  SRE1,
  SRE2,
  SRE3,
  TEAM_GROUP,
} from './fixtures.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0);

let dir: FakeDirectory;
let policy: Policy;

beforeEach(() => {
  dir = fakeDirectory();
  policy = loadExamplePolicy(dir);
});

describe('examples/policy.yml: approving prod deletes (two SREs)', () => {
  const base = {
    channel: PROD_CHANNEL,
    team: HOME_TEAM,
    workspace: HOME_TEAM,
    requester: DEV1,
    operation: 'vessel.delete' as const,
    target: prodDelete,
    now: NOW,
    expiresAt: NOW + HOUR,
  };
  type Vote = { userId: string; decision: 'approve' | 'reject' };
  const approve = (userId: string): Vote => ({ userId, decision: 'approve' });

  it.each<[string, string, string, Vote[], unknown]>([
    [
      'first SRE approval',
      SRE1,
      DEV1,
      [],
      { allowed: true, rule: 'prod-deletes', satisfied: false, count: 1, required: 2 },
    ],
    [
      'second distinct SRE',
      SRE2,
      DEV1,
      [approve(SRE1)],
      { allowed: true, rule: 'prod-deletes', satisfied: true, count: 2, required: 2 },
    ],
    [
      'same SRE twice counts once',
      SRE1,
      DEV1,
      [approve(SRE1)],
      { allowed: true, rule: 'prod-deletes', satisfied: false, count: 1, required: 2 },
    ],
    [
      'duplicates in the stored approvals count once',
      SRE1,
      DEV1,
      [approve(SRE1), approve(SRE1), approve(SRE1)],
      expect.objectContaining({ allowed: true, satisfied: false, count: 1 }),
    ],
    [
      'the requester approving is refused',
      SRE1,
      SRE1,
      [],
      {
        allowed: false,
        rule: 'prod-deletes',
        reason:
          'You requested this change, so someone else must approve it: group S02SRE (policy rule `prod-deletes` does not allow self-approval).',
      },
    ],
    [
      "the requester's own stored approval does not count",
      SRE2,
      SRE1,
      [approve(SRE1)],
      expect.objectContaining({ allowed: true, satisfied: false, count: 1 }),
    ],
    [
      'a team member who is not an SRE',
      DEV2,
      DEV1,
      [],
      {
        allowed: false,
        rule: 'prod-deletes',
        reason:
          'You are not an approver for this change: policy rule `prod-deletes` needs approval from group S02SRE.',
      },
    ],
    [
      'an outsider',
      OUTSIDER,
      DEV1,
      [approve(SRE1)],
      expect.objectContaining({ allowed: false, reason: expect.stringMatching(/not an approver/) }),
    ],
    [
      'after an SRE rejected',
      SRE2,
      DEV1,
      [{ userId: SRE1, decision: 'reject' }],
      { allowed: false, rule: 'prod-deletes', reason: 'This change was already rejected by an approver.' },
    ],
  ])('%s', async (_case, user, requester, approvals, expected) => {
    expect(await policy.authorizeApproval({ ...base, user, requester, approvals })).toEqual(expected);
  });

  it('refuses approval once the request has expired', async () => {
    const decision = await policy.authorizeApproval({ ...base, user: SRE1, approvals: [], now: NOW + HOUR });
    expect(decision).toEqual({ allowed: false, reason: 'This request expired 2026-01-01 13:00 UTC.' });
  });

  it('re-checks on every click: an SRE who left the group can neither approve nor still count', async () => {
    dir.groups.set(SRE_GROUP, [SRE1, SRE3]);
    const leaver = await policy.authorizeApproval({ ...base, user: SRE2, approvals: [approve(SRE1)] });
    expect(leaver).toEqual(
      expect.objectContaining({ allowed: false, reason: expect.stringMatching(/not an approver/) }),
    );
    const third = await policy.authorizeApproval({ ...base, user: SRE3, approvals: [approve(SRE2)] });
    expect(third).toEqual(expect.objectContaining({ allowed: true, satisfied: false, count: 1 }));
  });

  it('resolves each group once per decision', async () => {
    await policy.authorizeApproval({ ...base, user: SRE3, approvals: [approve(SRE1), approve(SRE2)] });
    expect(dir.lookups).toEqual([SRE_GROUP]);
  });

  it('refuses approval on a change that needs only confirmation', async () => {
    const decision = await policy.authorizeApproval({
      ...base,
      user: SRE1,
      operation: 'vessel.create',
      target: devEnv,
      approvals: [],
    });
    expect(decision).toEqual({
      allowed: false,
      rule: 'dev-open',
      reason: "This change needs only the requester's confirmation, not approval (policy rule `dev-open`).",
    });
  });
});

describe('examples/policy.yml: confirm and cancel clicks', () => {
  const devChange = {
    channel: GENERAL_CHANNEL,
    team: HOME_TEAM,
    workspace: HOME_TEAM,
    requester: DEV1,
    operation: 'vessel.create' as const,
    target: devEnv,
  };
  const prodChange = {
    channel: PROD_CHANNEL,
    team: HOME_TEAM,
    workspace: HOME_TEAM,
    requester: DEV1,
    operation: 'vessel.delete' as const,
    target: prodDelete,
  };

  it.each<[string, string, typeof devChange | typeof prodChange, unknown]>([
    ['the requester confirms', DEV1, devChange, { allowed: true, rule: 'dev-open' }],
    [
      'someone else confirms',
      SRE1,
      devChange,
      {
        allowed: false,
        rule: 'dev-open',
        reason: 'Only the person who requested this change (user U0DEV00001) can confirm it.',
      },
    ],
    [
      'the requester confirms a prod delete in #harbor-prod',
      DEV1,
      prodChange,
      { allowed: true, rule: 'prod-deletes' },
    ],
    [
      'the requester confirms from another channel',
      DEV1,
      { ...prodChange, channel: GENERAL_CHANNEL },
      expect.objectContaining({
        allowed: false,
        reason: expect.stringMatching(
          /^You can not delete vessel web-1 in environment prod from this channel: .* only in #harbor-prod\. Run the command there\.$/,
        ),
      }),
    ],
  ])('confirm: %s', async (_case, user, change, expected) => {
    expect(await policy.authorizeConfirm({ ...change, user })).toEqual(expected);
  });

  it('confirm re-checks the requester: removed from the team since requesting', async () => {
    dir.groups.set(TEAM_GROUP, [DEV2]);
    expect(await policy.authorizeConfirm({ ...devChange, user: DEV1 })).toEqual({
      allowed: false,
      rule: 'dev-open',
      reason:
        'You are not allowed to create vessels in environment dev: policy rule `dev-open` lets only group S01TEAMDEV or group S02SRE do it; ask one of them to request it.',
    });
  });

  it.each<[string, string, typeof devChange | typeof prodChange, unknown]>([
    ['the requester cancels', DEV1, devChange, { allowed: true, rule: 'dev-open' }],
    [
      'someone else cancels a confirm-only change',
      DEV2,
      devChange,
      {
        allowed: false,
        rule: 'dev-open',
        reason: 'Only the person who requested this change (user U0DEV00001) can cancel it.',
      },
    ],
    ['an approver cancels a prod delete', SRE2, prodChange, { allowed: true, rule: 'prod-deletes' }],
    [
      'a non-approver cancels a prod delete',
      DEV2,
      prodChange,
      {
        allowed: false,
        rule: 'prod-deletes',
        reason: 'Only the requester (user U0DEV00001) or an approver (group S02SRE) can cancel this change.',
      },
    ],
  ])('cancel: %s', async (_case, user, change, expected) => {
    expect(await policy.authorizeCancel({ ...change, user })).toEqual(expected);
  });
});
