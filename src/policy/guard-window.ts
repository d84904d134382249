/**
 * A guard's longest window (issue 42): beyond a day a rollback is no longer
 * "before the players notice". The policy's `guard.within`, the `--guard`
 * flag and a change form's Guard field all hold to this one limit, each
 * saying it in its own words around `MAX_GUARD_WORDS`.
 */

/** The longest window a guard may watch a rollout for. */
export const MAX_GUARD_MS = 86_400_000;

/** The limit as every refusal of a longer window says it. */
export const MAX_GUARD_WORDS = 'at most 24h (a guard watches one rollout)';
