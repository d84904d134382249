/**
 * Glob matching for operation and target patterns. Case-insensitive on purpose:
 * a rule for `prod*` must not be side-stepped by a target spelled `Prod`.
 */
import picomatch from 'picomatch';

/** A predicate that is true when `value` matches any of `patterns`. */
export function globMatcher(patterns: readonly string[]): (value: string) => boolean {
  const isMatch = picomatch([...patterns], { nocase: true, dot: true });
  return (value) => isMatch(value);
}
