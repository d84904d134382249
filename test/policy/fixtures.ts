/**
 * A fake directory of users, groups and channels for policy tests: group
 * membership is mutable so tests can show that every click is re-checked.
 */
import { readFileSync } from 'node:fs';
import { type Policy, type PolicyContext, parsePolicy, type Target } from '../../src/policy/index.js';
import type { Logger } from '../../src/runtime/logger.js';

export const DEV1 = 'U0DEV00001';
export const DEV2 = 'U0DEV00002';
export const SRE1 = 'U0SRE00001';
export const SRE2 = 'U0SRE00002';
export const SRE3 = 'U0SRE00003';
export const OUTSIDER = 'U0OUTSIDE1';

export const TEAM_GROUP = 'S01TEAMDEV';
export const SRE_GROUP = 'S02SRE';

/** The workspace changes are requested and clicked in, unless a test says otherwise. */
export const HOME_TEAM = 'T0HOME0001';

export const PROD_CHANNEL = 'C0PROD0001';
export const GENERAL_CHANNEL = 'C0GENERAL1';

export interface FakeDirectory {
  ctx: PolicyContext;
  groups: Map<string, string[]>;
  /** Group ids in the order they were resolved. */
  lookups: string[];
}

/** A directory matching the groups and channels named in examples/policy.yml. */
export function fakeDirectory(logger?: Logger): FakeDirectory {
  const groups = new Map<string, string[]>([
    [TEAM_GROUP, [DEV1, DEV2]],
    [SRE_GROUP, [SRE1, SRE2, SRE3]],
  ]);
  const channels = new Map([
    [PROD_CHANNEL, 'harbor-prod'],
    [GENERAL_CHANNEL, 'general'],
  ]);
  const lookups: string[] = [];
  const ctx: PolicyContext = {
    resolveGroup: async (id) => {
      lookups.push(id);
      const members = groups.get(id);
      if (!members) throw new Error(`unknown group ${id}`);
      return [...members];
    },
    resolveChannelName: async (id) => channels.get(id),
    ...(logger ? { logger } : {}),
  };
  return { ctx, groups, lookups };
}

/** The path the example policy is given as its source in tests (messages name it). */
export const EXAMPLE_SOURCE = '/etc/harbor/policy.yml';

/** Parses the shipped examples/policy.yml against `dir`. */
export function loadExamplePolicy(dir: FakeDirectory): Policy {
  const text = readFileSync(new URL('../../examples/policy.yml', import.meta.url), 'utf8');
  return parsePolicy(text, dir.ctx, EXAMPLE_SOURCE);
}

export const HOUR = 3_600_000;
export const prodEnv: Target = { environment: 'prod' };
export const devEnv: Target = { environment: 'dev' };
export const prodDelete: Target = { environment: 'prod', vessel: 'web-1' };
export const toProd: Target = { branch: 'prod', sourceBranch: 'dev' };
export const toDev: Target = { branch: 'dev', sourceBranch: 'feature-x' };
