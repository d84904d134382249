/**
 * Whether a change is guarded (issue 42), decided once at request from its
 * policy rule and what the requester asked: the rule's `guard:` guards every
 * rollout it governs; `--guard <duration>` asks for it (where the rule sets
 * one: a mandatory guard may be lengthened, never shortened); `--no-guard`
 * declines it where the rule says `optional: true`. A change form's Guard
 * field asks the same (`GuardAsk`), judged here the same way. Every refusal
 * says what was asked (the flag, or the Guard field), why, and what would do.
 */
import { formatShorthand, formatSpan } from '../format/duration.js';
import { describe, isGuardable } from '../operations/index.js';
import type { ChangeOperation } from '../policy/operations.js';
import type { Requirement } from '../policy/types.js';

/** What the requester asked: a window (`--guard 15m`, Guard `15m`), or none (`--no-guard`, Guard `none`). */
export type GuardAsk = { withinMs: number } | { off: true };

/** The guard a change carries in its plan: how long after its apply it is watched, and the rule that set it. */
export interface ChangeGuard {
  withinMs: number;
  rule: string;
}

/**
 * A refusal in the words of the surface that asked: a typed command's flags
 * (`--guard`, `--no-guard`), or a change form's Guard field (a form speaks
 * its fields' words, never a command's flags). The same judgement, the same
 * rule and reason; only the words for what was asked and what would do differ.
 */
export interface GuardRefusal {
  command: string;
  form: string;
}

/** The guard `operation` gets under `requirement` as asked, or the refusal in words. */
export function chooseGuard(
  operation: ChangeOperation,
  requirement: Requirement,
  ask: GuardAsk | undefined,
): { guard?: ChangeGuard } | { refusal: GuardRefusal } {
  const ruled = requirement.guard;
  const flag = ask === undefined ? undefined : 'off' in ask ? '`--no-guard`' : '`--guard`';
  const field = ask === undefined ? undefined : 'off' in ask ? 'Guard `none`' : 'Guard';
  if (!isGuardable(operation)) {
    if (!flag) return {};
    const action = describe(operation).action({});
    return {
      refusal: {
        command: `${flag} goes with a rollout of a build (promote, armada image, armadaset image); ${action} is not one.`,
        form: `${field} goes with a rollout of a build (promote, armada image, armadaset image); ${action} is not one.`,
      },
    };
  }
  if (!ruled) {
    if (!flag) return {};
    const what = ask && 'off' in ask ? 'decline' : 'ask for';
    const why = `the policy rule ${requirement.rule} sets no guard for this rollout, so there is none to ${what}.`;
    const fix = 'whoever maintains the policy to add `guard: {within: 15m}` to that rule (docs/policy.md)';
    return {
      refusal: {
        command: `${flag} is refused: ${why} Ask ${fix}, or request it without ${flag}.`,
        form: `${field} is refused: ${why} Leave Guard empty, or ask ${fix}.`,
      },
    };
  }
  if (ask === undefined) return { guard: { withinMs: ruled.withinMs, rule: requirement.rule } };
  const ruledFor = formatShorthand(ruled.withinMs);
  if ('off' in ask) {
    if (ruled.optional) return {};
    const why = `the policy rule ${requirement.rule} guards every such rollout for ${ruledFor} and does not make it optional.`;
    return {
      refusal: {
        command: `\`--no-guard\` is refused: ${why} Request it without \`--no-guard\`.`,
        form: `Guard \`none\` is refused: ${why} Leave Guard empty for the rule's ${ruledFor}, or give a longer window.`,
      },
    };
  }
  if (ask.withinMs < ruled.withinMs && !ruled.optional) {
    const asked = formatShorthand(ask.withinMs);
    const why = `the policy rule ${requirement.rule} guards such rollouts for ${ruledFor}, and a guard may be made longer, not shorter.`;
    return {
      refusal: {
        command: `\`--guard ${asked}\` is refused: ${why} Give \`--guard ${ruledFor}\` or more, or leave it out.`,
        form: `Guard \`${asked}\` is refused: ${why} Give ${ruledFor} or more, or leave Guard empty.`,
      },
    };
  }
  return { guard: { withinMs: ask.withinMs, rule: requirement.rule } };
}

/** The preview's line about the guard. */
export function guardNote(guard: ChangeGuard): string {
  return `Guarded: rolled back automatically if its servers do not become Ready, or it goes Degraded, within ${formatSpan(guard.withinMs)} (policy rule ${guard.rule}).`;
}
