import { describe, expect, it } from '@jest/globals';
import { nameProblem } from '../../src/gamefabric/names.js';

describe('nameProblem', () => {
  it.each([
    ['my-vessel', undefined],
    ['a', undefined],
    ['v1.2', undefined],
    ['', 'must not be empty'],
    ['My-Vessel', 'must be lowercase'],
    ['-abc', 'must start with a lowercase letter or digit'],
    ['abc-', 'must end with a lowercase letter or digit'],
    ['a_b', "may contain only lowercase letters, digits, '-' and '.'"],
    ['a'.repeat(64), 'must be at most 63 characters (got 64)'],
  ])('%s -> %s', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });

  it('applies a tighter limit for regions', () => {
    expect(nameProblem('r'.repeat(25), 24)).toBe('must be at most 24 characters (got 25)');
  });
});
