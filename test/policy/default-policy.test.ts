/**
 * The built-in default: anyone reads and requests, every change needs the
 * requester's confirmation, and prod*, production* or live* environments or target
 * branches need one approval by someone else.
 */

import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  CHANGE_OPERATIONS,
  loadPolicy,
  type Operation,
  type Policy,
  READ_OPERATIONS,
  type Target,
} from '../../src/policy/index.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { DEV1, fakeDirectory, GENERAL_CHANNEL, HOME_TEAM, OUTSIDER, SRE1 } from './fixtures.js';

const NOW = Date.UTC(2026, 0, 1);
let policy: Policy;

beforeAll(async () => {
  policy = await loadPolicy(undefined, fakeDirectory().ctx);
});

const PRODUCTION_APPROVAL = (rule: string) => ({
  mode: 'approval',
  rule,
  expiresInMs: 30 * 60_000,
  required: 1,
  approvers: { users: ['*'], groups: [] },
  allowSelfApproval: false,
});
const CONFIRM = { mode: 'confirm', rule: 'default-changes', expiresInMs: 30 * 60_000 };

describe('built-in default policy', () => {
  it('logs at warn that it is in use, and what it allows', async () => {
    const logger = createMemoryLogger();
    const loaded = await loadPolicy(undefined, { ...fakeDirectory().ctx, logger });
    expect(loaded.source).toBe('built-in default');
    expect(logger.lines).toHaveLength(1);
    expect(JSON.parse(logger.lines[0] ?? '{}')).toMatchObject({
      level: 'warn',
      msg:
        'no HARBOR_POLICY set: using the built-in default policy (anyone may read and request; every change ' +
        "needs the requester's confirmation; changes to an environment or target branch named prod*, " +
        'production* or live* need one approval by someone other than the requester; only people in the ' +
        'workspace a change was requested in may act on it)',
    });
  });

  it.each(
    [...READ_OPERATIONS, ...CHANGE_OPERATIONS].flatMap((operation) =>
      [{ environment: 'prod' }, { branch: 'live' }, {}].map((target): [Operation, Target] => [
        operation,
        target,
      ]),
    ),
  )('anyone may request %s on %j', async (operation, target) => {
    const decision = await policy.authorizeRequest({
      team: 'T0HARBOR',
      user: OUTSIDER,
      channel: GENERAL_CHANNEL,
      operation,
      target,
    });
    expect(decision.allowed).toBe(true);
  });

  it.each<[Operation, Target, unknown]>([
    ['vessel.create', { environment: 'dev' }, CONFIRM],
    ['vessel.delete', { environment: 'staging', vessel: 'web' }, CONFIRM],
    ['vessel.delete', { environment: 'preprod' }, CONFIRM],
    ['vessel.delete', { environment: 'prod' }, PRODUCTION_APPROVAL('default-production-environment')],
    [
      'formation.remove',
      { environment: 'Production-EU', formation: 'f' },
      PRODUCTION_APPROVAL('default-production-environment'),
    ],
    ['region.create', { environment: 'live' }, PRODUCTION_APPROVAL('default-production-environment')],
    ['region.scheduling', { environment: 'LIVE-us' }, PRODUCTION_APPROVAL('default-production-environment')],
    [
      'image.promote',
      { branch: 'prod', sourceBranch: 'dev' },
      PRODUCTION_APPROVAL('default-production-branch'),
    ],
    [
      'image.promote',
      { branch: 'production', sourceBranch: 'dev' },
      PRODUCTION_APPROVAL('default-production-branch'),
    ],
    // Only the target branch counts: copying out of prod changes nothing there.
    ['image.promote', { branch: 'dev', sourceBranch: 'prod' }, CONFIRM],
    ['image.promote', { branch: 'staging', sourceBranch: 'live' }, CONFIRM],
  ])('%s on %j needs %j', (operation, target, requirement) => {
    expect(policy.requirement(operation, target)).toEqual(requirement);
  });

  it.each<[string, string, string, unknown]>([
    [
      'the requester',
      DEV1,
      DEV1,
      expect.objectContaining({ allowed: false, reason: expect.stringMatching(/someone else must approve/) }),
    ],
    [
      'anyone else',
      SRE1,
      DEV1,
      { allowed: true, rule: 'default-production-environment', satisfied: true, count: 1, required: 1 },
    ],
    ['an outsider', OUTSIDER, DEV1, expect.objectContaining({ allowed: true, satisfied: true })],
  ])('a prod change approved by %s', async (_case, user, requester, expected) => {
    const decision = await policy.authorizeApproval({
      user,
      requester,
      channel: GENERAL_CHANNEL,
      team: HOME_TEAM,
      workspace: HOME_TEAM,
      operation: 'vessel.delete',
      target: { environment: 'prod' },
      approvals: [],
      now: NOW,
      expiresAt: NOW + 60_000,
    });
    expect(decision).toEqual(expected);
  });

  it('lets only the requester confirm a change', async () => {
    const change = {
      channel: GENERAL_CHANNEL,
      team: HOME_TEAM,
      workspace: HOME_TEAM,
      requester: DEV1,
      operation: 'vessel.create' as const,
      target: { environment: 'dev' },
    };
    expect(await policy.authorizeConfirm({ ...change, user: DEV1 })).toEqual({
      allowed: true,
      rule: 'default-changes',
    });
    expect(await policy.authorizeConfirm({ ...change, user: SRE1 })).toMatchObject({ allowed: false });
  });
});
