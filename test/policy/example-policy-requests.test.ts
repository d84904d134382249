/**
 * The shipped examples/policy.yml parses and does what its comments say: who
 * may request what (a table of users x operations x targets), and what each
 * change then needs.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import type { Operation, Policy, Target } from '../../src/policy/index.js';
import {
  DEV1,
  DEV2,
  devEnv,
  fakeDirectory,
  GENERAL_CHANNEL,
  HOUR,
  loadExamplePolicy,
  OUTSIDER,
  PROD_CHANNEL,
  prodDelete,
  prodEnv,
  SRE_GROUP,
  SRE1,
  SRE2,
  SRE3,
  toDev,
  toProd,
} from './fixtures.js';

let policy: Policy;

beforeEach(() => {
  policy = loadExamplePolicy(fakeDirectory());
});

type Expected = { rule: string } | { deny: string | RegExp };

describe('examples/policy.yml: who may request what', () => {
  it.each<[string, string, Operation, Target, Expected]>([
    // Reads are open to everyone, anywhere, on any target.
    [OUTSIDER, GENERAL_CHANNEL, 'images.list', { branch: 'prod' }, { rule: 'reads' }],
    [OUTSIDER, GENERAL_CHANNEL, 'vessels.list', prodEnv, { rule: 'reads' }],
    [DEV1, GENERAL_CHANNEL, 'formation.show', { environment: 'prod', formation: 'eu' }, { rule: 'reads' }],
    [OUTSIDER, PROD_CHANNEL, 'region.show', { environment: 'staging', region: 'eu' }, { rule: 'reads' }],
    [DEV2, GENERAL_CHANNEL, 'logs.read', { environment: 'prod', vessel: 'web-1' }, { rule: 'reads' }],
    // Fleets are read by everyone who reads vessels, prod included.
    [OUTSIDER, GENERAL_CHANNEL, 'armadas.list', prodEnv, { rule: 'reads' }],
    [DEV1, GENERAL_CHANNEL, 'armada.show', { environment: 'prod', armada: 'duel' }, { rule: 'reads' }],
    [DEV1, GENERAL_CHANNEL, 'armadaset.show', { environment: 'prod', armadaSet: 'arena' }, { rule: 'reads' }],
    // Prod fleet changes: the team may request them, an SRE approves.
    [DEV1, GENERAL_CHANNEL, 'armada.scale', { environment: 'prod', armada: 'duel' }, { rule: 'prod-fleets' }],
    [
      DEV2,
      GENERAL_CHANNEL,
      'armadaset.image',
      { environment: 'prod', armadaSet: 'arena' },
      { rule: 'prod-fleets' },
    ],
    [
      OUTSIDER,
      GENERAL_CHANNEL,
      'armada.image',
      { environment: 'prod', armada: 'duel' },
      { deny: /policy rule `prod-fleets` lets only group S01TEAMDEV or group S02SRE do it/ },
    ],
    // Dev is open to the team (and SREs), and no one else.
    [DEV1, GENERAL_CHANNEL, 'vessel.create', devEnv, { rule: 'dev-open' }],
    [DEV2, GENERAL_CHANNEL, 'vessel.delete', { environment: 'dev-eu', vessel: 'x' }, { rule: 'dev-open' }],
    [SRE1, GENERAL_CHANNEL, 'formation.remove', devEnv, { rule: 'dev-open' }],
    [
      OUTSIDER,
      GENERAL_CHANNEL,
      'vessel.create',
      devEnv,
      {
        deny: 'You are not allowed to create vessels in environment dev: policy rule `dev-open` lets only group S01TEAMDEV or group S02SRE do it; ask one of them to request it.',
      },
    ],
    // dev-open names an environment, which a promotion lacks: dev-promotions decides instead.
    [DEV1, GENERAL_CHANNEL, 'image.promote', toDev, { rule: 'dev-promotions' }],
    [
      OUTSIDER,
      GENERAL_CHANNEL,
      'image.promote',
      toDev,
      { deny: /policy rule `dev-promotions` lets only group S01TEAMDEV or group S02SRE do it/ },
    ],
    // Prod promotions: the team may request them (approval comes later).
    [DEV1, GENERAL_CHANNEL, 'image.promote', toProd, { rule: 'prod-promotions' }],
    [
      SRE2,
      GENERAL_CHANNEL,
      'image.promote',
      { branch: 'prod-eu', sourceBranch: 'staging' },
      { rule: 'prod-promotions' },
    ],
    [
      OUTSIDER,
      GENERAL_CHANNEL,
      'image.promote',
      toProd,
      { deny: /^You are not allowed to promote images from dev into branch prod:/ },
    ],
    // Prod deletes: team or SRE, only from #harbor-prod.
    [DEV1, PROD_CHANNEL, 'vessel.delete', prodDelete, { rule: 'prod-deletes' }],
    [
      SRE1,
      PROD_CHANNEL,
      'formation.remove',
      { environment: 'prod', formation: 'eu', vessel: 'v2' },
      { rule: 'prod-deletes' },
    ],
    [
      DEV1,
      GENERAL_CHANNEL,
      'vessel.delete',
      prodDelete,
      {
        deny: 'You can not delete vessel web-1 in environment prod from this channel: policy rule `prod-deletes` allows it only in #harbor-prod. Run the command there.',
      },
    ],
    [
      OUTSIDER,
      PROD_CHANNEL,
      'vessel.delete',
      prodDelete,
      { deny: /lets only group S01TEAMDEV or group S02SRE do it; ask one of them to request it\.$/ },
    ],
    // Prod region changes: SREs only.
    [SRE3, GENERAL_CHANNEL, 'region.create', { environment: 'prod', region: 'us' }, { rule: 'prod-regions' }],
    [
      SRE1,
      GENERAL_CHANNEL,
      'region.scheduling',
      { environment: 'Prod', region: 'eu' },
      { rule: 'prod-regions' },
    ],
    [
      DEV1,
      GENERAL_CHANNEL,
      'region.scheduling',
      { environment: 'prod', region: 'eu' },
      {
        deny: /^You are not allowed to change the scheduling of region eu in environment prod: policy rule `prod-regions` lets only group S02SRE do it/,
      },
    ],
    // Anything no rule covers is denied, naming what is missing.
    [
      SRE1,
      PROD_CHANNEL,
      'vessel.create',
      prodEnv,
      {
        deny: 'No policy rule lets anyone create vessels in environment prod. Ask whoever maintains the policy to add a rule for it.',
      },
    ],
    [
      SRE1,
      PROD_CHANNEL,
      'formation.add',
      { environment: 'staging', formation: 'eu' },
      { deny: /^No policy rule lets anyone add vessels to formation eu in environment staging\./ },
    ],
    [
      SRE1,
      PROD_CHANNEL,
      'image.promote',
      { branch: 'staging', sourceBranch: 'dev' },
      { deny: /^No policy rule lets anyone promote images from dev into branch staging\./ },
    ],
    [SRE1, PROD_CHANNEL, 'vessel.delete', {}, { deny: /^No policy rule lets anyone delete vessels\. Ask/ }],
  ])('%s in %s: %s %j', async (user, channel, operation, target, expected) => {
    const decision = await policy.authorizeRequest({ user, team: 'T0HARBOR', channel, operation, target });
    if ('rule' in expected) expect(decision).toEqual({ allowed: true, rule: expected.rule });
    else {
      expect(decision.allowed).toBe(false);
      if (!decision.allowed) {
        if (typeof expected.deny === 'string') expect(decision.reason).toBe(expected.deny);
        else expect(decision.reason).toMatch(expected.deny);
        // Refusals name the groups a rule lists, never the members behind them.
        expect(decision.reason).not.toMatch(/U0(DEV|SRE)/);
      }
    }
  });

  it('matches a channel given by name when the caller has only the name', async () => {
    const decision = await policy.authorizeRequest({
      team: 'T0HARBOR',
      user: DEV1,
      channel: '#Harbor-Prod',
      operation: 'vessel.delete',
      target: prodDelete,
    });
    expect(decision).toEqual({ allowed: true, rule: 'prod-deletes' });
  });
});

describe('examples/policy.yml: what each change needs', () => {
  it.each<[Operation, Target, unknown]>([
    ['vessel.create', devEnv, { mode: 'confirm', rule: 'dev-open', expiresInMs: 0.5 * HOUR }],
    ['image.promote', toDev, { mode: 'confirm', rule: 'dev-promotions', expiresInMs: 0.5 * HOUR }],
    [
      'image.promote',
      toProd,
      {
        mode: 'approval',
        rule: 'prod-promotions',
        expiresInMs: HOUR,
        required: 1,
        approvers: { users: [], groups: [SRE_GROUP] },
        allowSelfApproval: false,
      },
    ],
    [
      'vessel.delete',
      prodDelete,
      {
        mode: 'approval',
        rule: 'prod-deletes',
        expiresInMs: 2 * HOUR,
        required: 2,
        approvers: { users: [], groups: [SRE_GROUP] },
        allowSelfApproval: false,
      },
    ],
    [
      'formation.remove',
      { environment: 'production', formation: 'eu' },
      expect.objectContaining({ required: 2 }),
    ],
    [
      'region.scheduling',
      { environment: 'prod', region: 'eu' },
      expect.objectContaining({
        mode: 'approval',
        rule: 'prod-regions',
        required: 1,
        expiresInMs: 0.5 * HOUR,
      }),
    ],
  ])('%s %j', (operation, target, requirement) => {
    expect(policy.requirement(operation, target)).toEqual(requirement);
  });

  it('throws, naming the missing rule, for a change no rule covers', () => {
    expect(() => policy.requirement('vessel.create', prodEnv)).toThrow(
      'No policy rule lets anyone create vessels in environment prod. Ask whoever maintains the policy to add a rule for it.',
    );
  });
});
