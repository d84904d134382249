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
        deny: 'you are not allowed to request vessel.create on environment "dev": rule "dev-open" allows only members of its 2 groups',
      },
    ],
    // dev-open names an environment, which a promotion lacks: dev-promotions decides instead.
    [DEV1, GENERAL_CHANNEL, 'image.promote', toDev, { rule: 'dev-promotions' }],
    [
      OUTSIDER,
      GENERAL_CHANNEL,
      'image.promote',
      toDev,
      { deny: /rule "dev-promotions" allows only members/ },
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
    [OUTSIDER, GENERAL_CHANNEL, 'image.promote', toProd, { deny: /not allowed to request image\.promote/ }],
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
        deny: 'vessel.delete on environment "prod", vessel "web-1" can not be requested from this channel: rule "prod-deletes" allows only #harbor-prod',
      },
    ],
    [OUTSIDER, PROD_CHANNEL, 'vessel.delete', prodDelete, { deny: /allows only members of its 2 groups$/ }],
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
      { deny: /rule "prod-regions" allows only members of its group$/ },
    ],
    // Anything no rule covers is denied, naming what is missing.
    [
      SRE1,
      PROD_CHANNEL,
      'vessel.create',
      prodEnv,
      {
        deny: 'no policy rule allows vessel.create on environment "prod" (add a rule for it in /etc/harbor/policy.yml)',
      },
    ],
    [
      SRE1,
      PROD_CHANNEL,
      'formation.add',
      { environment: 'staging', formation: 'eu' },
      { deny: /^no policy rule allows formation\.add on environment "staging", formation "eu"/ },
    ],
    [
      SRE1,
      PROD_CHANNEL,
      'image.promote',
      { branch: 'staging', sourceBranch: 'dev' },
      { deny: /^no policy rule allows image\.promote on branch "staging", source branch "dev"/ },
    ],
    [SRE1, PROD_CHANNEL, 'vessel.delete', {}, { deny: /^no policy rule allows vessel\.delete \(add a rule/ }],
  ])('%s in %s: %s %j', async (user, channel, operation, target, expected) => {
    const decision = await policy.authorizeRequest({ user, channel, operation, target });
    if ('rule' in expected) expect(decision).toEqual({ allowed: true, rule: expected.rule });
    else {
      expect(decision.allowed).toBe(false);
      if (!decision.allowed) {
        if (typeof expected.deny === 'string') expect(decision.reason).toBe(expected.deny);
        else expect(decision.reason).toMatch(expected.deny);
        // Refusals never list the members of the lists they mention.
        expect(decision.reason).not.toMatch(/U0(DEV|SRE)/);
      }
    }
  });

  it('matches a channel given by name when the caller has only the name', async () => {
    const decision = await policy.authorizeRequest({
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
      'no policy rule allows vessel.create on environment "prod" (add a rule for it in /etc/harbor/policy.yml)',
    );
  });
});
