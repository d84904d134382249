import { describe, expect, it } from '@jest/globals';
import { environmentNameProblem, nameProblem } from '../../src/api-shapes/names.js';

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
    // The provider's rule (internal/validators/meta.go): each dot-separated label starts and ends alphanumeric.
    ['a..b', "must have a lowercase letter or digit on both sides of each '.' (no '..', '.-' or '-.')"],
    ['a.-b', "must have a lowercase letter or digit on both sides of each '.' (no '..', '.-' or '-.')"],
    ['a-.b', "must have a lowercase letter or digit on both sides of each '.' (no '..', '.-' or '-.')"],
    ['.', 'must start with a lowercase letter or digit'],
    ['..', 'must start with a lowercase letter or digit'],
  ])('%s -> %s', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });

  it('applies a tighter limit for regions', () => {
    expect(nameProblem('r'.repeat(25), 24)).toBe('must be at most 24 characters (got 25)');
  });

  it('limits environment names to 4 characters, as the platform does', () => {
    expect(environmentNameProblem('prod')).toBeUndefined();
    expect(environmentNameProblem('stage')).toBe('must be at most 4 characters (got 5)');
  });
});
