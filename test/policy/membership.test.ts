/** Group lookups that fail, channel matching by id and name, and rule order. */
import { describe, expect, it } from '@jest/globals';
import { parsePolicy } from '../../src/policy/index.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { DEV1, fakeDirectory, GENERAL_CHANNEL, PROD_CHANNEL, SRE1 } from './fixtures.js';

describe('group resolution', () => {
  it('fails closed when a group can not be resolved, says so, and logs it', async () => {
    const logger = createMemoryLogger();
    const policy = parsePolicy(
      'rules: [{ name: ops, operations: "*", requesters: { groups: [S0GONE0001, S01TEAMDEV] } }]',
      { resolveGroup: fakeDirectory().ctx.resolveGroup, logger },
    );
    const outsider = await policy.authorizeRequest({
      team: 'T0HARBOR',
      user: SRE1,
      channel: GENERAL_CHANNEL,
      operation: 'vessel.create',
      target: {},
    });
    expect(outsider).toEqual({
      allowed: false,
      rule: 'ops',
      reason:
        'You are not allowed to create vessels: policy rule `ops` lets only group S0GONE0001 or group S01TEAMDEV do it ' +
        '(membership of one group could not be checked just now; try again); ask one of them to request it.',
    });
    expect(logger.lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        level: 'warn',
        groupId: 'S0GONE0001',
        error: expect.objectContaining({ message: 'unknown group S0GONE0001' }),
      }),
    ]);
    // A member of a group that does resolve is still allowed.
    const member = await policy.authorizeRequest({
      team: 'T0HARBOR',
      user: DEV1,
      channel: GENERAL_CHANNEL,
      operation: 'vessel.create',
      target: {},
    });
    expect(member).toEqual({ allowed: true, rule: 'ops' });
  });

  it('counts users listed directly without resolving any group', async () => {
    const dir = fakeDirectory();
    const policy = parsePolicy(
      `rules: [{ operations: "*", requesters: { users: [${SRE1}], groups: [S02SRE] } }]`,
      dir.ctx,
    );
    expect(
      await policy.authorizeRequest({
        user: SRE1,
        team: 'T0HARBOR',
        channel: 'C1X',
        operation: 'vessel.create',
        target: {},
      }),
    ).toEqual({
      allowed: true,
      rule: 'rules[0]',
    });
    expect(dir.lookups).toEqual([]);
  });
});

describe('channels', () => {
  const yaml = `rules: [{ operations: "*", channels: [${PROD_CHANNEL}, "#deploys"] }]`;

  it.each([
    [PROD_CHANNEL, true],
    [GENERAL_CHANNEL, false],
    ['deploys', true],
    ['#deploys', true],
    ['general', false],
  ])('without a name resolver, %s allowed: %s', async (channel, allowed) => {
    const policy = parsePolicy(yaml, { resolveGroup: async () => [] });
    const decision = await policy.authorizeRequest({
      team: 'T0HARBOR',
      user: DEV1,
      channel,
      operation: 'images.list',
      target: {},
    });
    expect(decision.allowed).toBe(allowed);
    if (!decision.allowed) {
      expect(decision.reason).toBe(
        'You can not list images from this channel: policy rule `rules[0]` allows it only in channel C0PROD0001 or #deploys. Run the command there.',
      );
    }
  });

  it('asks the resolver for the name of a channel id', async () => {
    const policy = parsePolicy(yaml, {
      resolveGroup: async () => [],
      resolveChannelName: async (id) => (id === 'C0DEPLOYS1' ? 'deploys' : undefined),
    });
    const ok = await policy.authorizeRequest({
      team: 'T0HARBOR',
      user: DEV1,
      channel: 'C0DEPLOYS1',
      operation: 'images.list',
      target: {},
    });
    expect(ok.allowed).toBe(true);
  });
});

describe('rule order and target matching', () => {
  const policy = parsePolicy(
    [
      'rules:',
      '  - { name: frozen, operations: ["formation.*"], target: { environment: [prod, live], formation: "eu-*" }, requesters: { users: [U0NOBODY01] } }',
      '  - { name: prod, operations: ["*"], target: { environment: "prod*" } }',
      '  - { name: promote, operations: image.promote, target: { branch: main, sourceBranch: "release-*" } }',
    ].join('\n'),
    { resolveGroup: async () => [] },
    'order.yml',
  );

  it.each([
    ['formation.add', { environment: 'prod', formation: 'eu-1' }, 'frozen'],
    ['formation.add', { environment: 'prod', formation: 'us-1' }, 'prod'],
    // The first matching rule decides even when it denies: later rules are not consulted.
    ['formation.remove', { environment: 'live', formation: 'eu-west' }, 'frozen'],
    ['formation.remove', { environment: 'prod' }, 'prod'],
    ['vessel.delete', { environment: 'PROD-2' }, 'prod'],
    ['image.promote', { branch: 'main', sourceBranch: 'release-1' }, 'promote'],
    ['image.promote', { branch: 'main', sourceBranch: 'hotfix' }, undefined],
    ['image.promote', { branch: 'main' }, undefined],
    ['vessel.delete', { environment: 'staging' }, undefined],
  ] as const)('%s %j is governed by %s', async (operation, target, rule) => {
    const decision = await policy.authorizeRequest({
      team: 'T0HARBOR',
      user: DEV1,
      channel: GENERAL_CHANNEL,
      operation,
      target,
    });
    expect(decision.rule).toBe(rule);
    expect(decision.allowed).toBe(rule === 'prod' || rule === 'promote');
  });
});
