/**
 * Whether a change is guarded (issue 42), decided once at request from its
 * policy rule and what the requester asked: the rule's `guard:` guards every
 * rollout it governs; `--guard <duration>` asks for it (where the rule sets
 * one: a mandatory guard may be lengthened, never shortened); `--no-guard`
 * declines it where the rule says `optional: true`. Every refusal says which
 * flag, why, and what would do.
 */
import { formatShorthand, formatSpan } from '../format/duration.js';
import { describe, isGuardable } from '../operations/index.js';
import type { ChangeOperation } from '../policy/operations.js';
import type { Requirement } from '../policy/types.js';

/** What the requester asked: a window (`--guard 15m`), or none (`--no-guard`). */
export type GuardAsk = { withinMs: number } | { off: true };

/** The guard a change carries in its plan: how long after its apply it is watched, and the rule that set it. */
export interface ChangeGuard {
  withinMs: number;
  rule: string;
}

/** The guard `operation` gets under `requirement` as asked, or the refusal in words. */
export function chooseGuard(
  operation: ChangeOperation,
  requirement: Requirement,
  ask: GuardAsk | undefined,
): { guard?: ChangeGuard } | { refusal: string } {
  const ruled = requirement.guard;
  const flag = ask === undefined ? undefined : 'off' in ask ? '`--no-guard`' : '`--guard`';
  if (!isGuardable(operation)) {
    if (!flag) return {};
    return {
      refusal: `${flag} goes with a rollout of a build (promote, armada image, armadaset image); ${describe(operation).action({})} is not one.`,
    };
  }
  if (!ruled) {
    if (!flag) return {};
    return {
      refusal: `${flag} is refused: the policy rule ${requirement.rule} sets no guard for this rollout, so there is none to ${ask && 'off' in ask ? 'decline' : 'ask for'}. Ask whoever maintains the policy to add \`guard: {within: 15m}\` to that rule (docs/policy.md), or request it without ${flag}.`,
    };
  }
  if (ask === undefined) return { guard: { withinMs: ruled.withinMs, rule: requirement.rule } };
  if ('off' in ask) {
    if (ruled.optional) return {};
    return {
      refusal: `\`--no-guard\` is refused: the policy rule ${requirement.rule} guards every such rollout for ${formatShorthand(ruled.withinMs)} and does not make it optional. Request it without \`--no-guard\`.`,
    };
  }
  if (ask.withinMs < ruled.withinMs && !ruled.optional) {
    return {
      refusal: `\`--guard ${formatShorthand(ask.withinMs)}\` is refused: the policy rule ${requirement.rule} guards such rollouts for ${formatShorthand(ruled.withinMs)}, and a guard may be made longer, not shorter. Give \`--guard ${formatShorthand(ruled.withinMs)}\` or more, or leave it out.`,
    };
  }
  return { guard: { withinMs: ask.withinMs, rule: requirement.rule } };
}

/** The preview's line about the guard. */
export function guardNote(guard: ChangeGuard): string {
  return `Guarded: rolled back automatically if its servers do not become Ready, or it goes Degraded, within ${formatSpan(guard.withinMs)} (policy rule ${guard.rule}).`;
}
