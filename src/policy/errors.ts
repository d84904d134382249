/**
 * Errors the policy module throws. Both carry messages written for the person
 * who has to fix things, so callers may show them as they are.
 */

/** A policy file that could not be read or is not valid; `problems` lists every `path: message`. */
export class PolicyError extends Error {
  override readonly name = 'PolicyError';

  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid policy (${source}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Asked for the requirement of an operation no rule covers (authorizeRequest would have denied it). */
export class NoMatchingRuleError extends Error {
  override readonly name = 'NoMatchingRuleError';
}
