/**
 * Rule matching. Rules are tried in file order and the first whose operations
 * and target patterns match is THE rule for that operation and target: its
 * requesters, channels and approval then decide, and later rules are never
 * consulted. So specific rules (prod) go above general ones (everything else).
 */
import { parseDuration } from './duration.js';
import { globMatcher } from './glob.js';
import { type Operation, TARGET_FIELDS, type Target, type TargetField } from './operations.js';
import { isChannelId, type PolicyFile } from './schema.js';

/** Users and groups; `anyone` when the users list holds '*'. */
export interface Audience {
  users: string[];
  groups: string[];
  anyone: boolean;
}

type RuleApproval =
  | { mode: 'confirm' }
  | { mode: 'approval'; required: number; approvers: Audience; allowSelfApproval: boolean };

export interface Rule {
  name: string;
  /** Absent: anyone may request. */
  requesters?: Audience;
  /** Absent: any channel. Entries are channel ids, or names without '#', lowercased. */
  channels?: string[];
  approval: RuleApproval;
  expiresInMs: number;
  /** `guard:` (issue 42): how long a rollout it governs is watched, and whether `--no-guard` may opt out. */
  guard?: RuleGuard;
  matchesOperation(operation: Operation): boolean;
  matchesTarget(target: Target): boolean;
  /** Whether every constrained field that `target` has matches (fields it lacks are not judged). */
  matchesKnown(target: Target): boolean;
  /** The target fields the rule's patterns constrain. */
  constrains: readonly TargetField[];
}

export interface RuleGuard {
  withinMs: number;
  optional: boolean;
}

/** Default lifetime of a pending request when neither the rule nor `defaults.expires` says. */
const DEFAULT_EXPIRES_MS = 30 * 60_000;

/** Builds matchers for every rule of a validated policy file. */
export function compileRules(file: PolicyFile): Rule[] {
  const defaultExpires = file.defaults?.expires ? durationMs(file.defaults.expires) : DEFAULT_EXPIRES_MS;
  return file.rules.map((rule, index) => {
    const fieldMatchers = TARGET_FIELDS.flatMap((field) => {
      const patterns = rule.target?.[field];
      return patterns ? [{ field, match: globMatcher(patterns) }] : [];
    });
    const approval = rule.approval;
    return {
      name: rule.name ?? `rules[${index}]`,
      requesters: rule.requesters && toAudience(rule.requesters),
      channels: rule.channels?.map(normalizeChannel),
      approval:
        approval === undefined || approval.mode === 'confirm'
          ? { mode: 'confirm' }
          : {
              mode: 'approval',
              // The schema guarantees both once mode is not 'confirm'.
              required: approval.required ?? 1,
              approvers: toAudience(approval.approvers ?? { users: [], groups: [] }),
              allowSelfApproval: approval.allowSelfApproval ?? false,
            },
      expiresInMs: rule.expires ? durationMs(rule.expires) : defaultExpires,
      ...(rule.guard
        ? { guard: { withinMs: durationMs(rule.guard.within), optional: rule.guard.optional ?? false } }
        : {}),
      matchesOperation: globMatcher(rule.operations),
      matchesTarget: (target: Target) =>
        fieldMatchers.every(({ field, match }) => fieldMatches(target, field, match)),
      matchesKnown: (target: Target) =>
        fieldMatchers.every(({ field, match }) => target[field] === undefined || match(target[field])),
      constrains: fieldMatchers.map(({ field }) => field),
    } satisfies Rule;
  });
}

/** The rule that governs `operation` on `target`, or undefined when none does. */
export function findRule(rules: readonly Rule[], operation: Operation, target: Target): Rule | undefined {
  return rules.find((rule) => rule.matchesOperation(operation) && rule.matchesTarget(target));
}

/**
 * The rule for a target known only in part (a form not yet filled in): the
 * rule, undefined when none can match, or 'depends' when a rule that might
 * come first constrains a field the target does not have yet.
 */
export function findRuleForPartial(
  rules: readonly Rule[],
  operation: Operation,
  partial: Target,
): Rule | 'depends' | undefined {
  for (const rule of rules) {
    if (!rule.matchesOperation(operation)) continue;
    if (rule.constrains.some((field) => partial[field] === undefined)) {
      // Known fields that already miss rule it out; otherwise the unknown ones decide.
      if (!rule.matchesKnown(partial)) continue;
      return 'depends';
    }
    if (rule.matchesTarget(partial)) return rule;
  }
  return undefined;
}

/** A channel entry as compared: ids as written, names without '#' and lowercased. */
function normalizeChannel(entry: string): string {
  return isChannelId(entry) ? entry : entry.replace(/^#/, '').toLowerCase();
}

// A field the rule constrains but the target lacks does not match: a rule for
// environment prod* must not catch a promotion, which has no environment.
function fieldMatches(target: Target, field: TargetField, match: (value: string) => boolean): boolean {
  const value = target[field];
  return value !== undefined && match(value);
}

function toAudience(a: { users: string[]; groups: string[] }): Audience {
  return { users: [...a.users], groups: [...a.groups], anyone: a.users.includes('*') };
}

function durationMs(text: string): number {
  const parsed = parseDuration(text);
  if ('problem' in parsed) throw new Error(`unvalidated duration: ${parsed.problem}`);
  return parsed.ms;
}
