import { describe, expect, it } from '@jest/globals';
import { closestWords, editDistance } from '../../../src/slack/grammar/suggest.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one each', () => {
    expect(editDistance('vessels', 'vessels')).toBe(0);
    expect(editDistance('vesels', 'vessels')).toBe(1);
    expect(editDistance('vessels!', 'vessels')).toBe(1);
    expect(editDistance('vassels', 'vessels')).toBe(1);
    expect(editDistance('shwo', 'show')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('closestWords', () => {
  const words = ['images', 'vessels', 'vessel', 'formation', 'region', 'release', 'logs'];

  it('ranks by distance, case-insensitively', () => {
    expect(closestWords('VESELS', words)).toEqual(['vessels', 'vessel']);
  });

  it('matches prefixes of two letters or more', () => {
    expect(closestWords('form', words)).toEqual(['formation']);
    expect(closestWords('re', words)).toEqual(['region', 'release']);
    expect(closestWords('f', words)).toEqual([]);
  });

  it('allows one edit for short words and two for longer ones', () => {
    expect(closestWords('lgo', words)).toEqual([]);
    expect(closestWords('log', words)).toEqual(['logs']);
    expect(closestWords('imagse', words)).toEqual(['images']);
  });

  it('never suggests the word itself, nothing for empty or huge words', () => {
    expect(closestWords('logs', ['logs'])).toEqual([]);
    expect(closestWords('', words)).toEqual([]);
    expect(closestWords('v'.repeat(1000), words)).toEqual([]);
  });
});
