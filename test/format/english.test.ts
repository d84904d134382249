import { describe, expect, it } from '@jest/globals';
import { article, count, noun, pluralOf, singularOf, withArticle } from '../../src/format/english.js';

describe('counts', () => {
  it('puts the noun in the number the count calls for', () => {
    expect(count(1, 'approval')).toBe('1 approval');
    expect(count(0, 'approval')).toBe('0 approvals');
    expect(count(2, 'branch')).toBe('2 branches');
    expect(count(3, 'entry')).toBe('3 entries');
    expect(count(2, 'person', 'people')).toBe('2 people');
    expect(noun(1, 'line')).toBe('line');
    expect(noun(7, 'line')).toBe('lines');
  });

  it('turns plurals back into singulars', () => {
    expect(pluralOf('image')).toBe('images');
    expect(singularOf('branches')).toBe('branch');
    expect(singularOf('images')).toBe('image');
    expect(singularOf('strategies')).toBe('strategy');
  });
});

describe('articles', () => {
  it.each([
    ['image', 'an'],
    ['vessel', 'a'],
    ['unique name', 'a'],
    ['hour', 'an'],
    ['`environment`', 'an'],
    ['European region', 'a'],
  ])('%s takes %s', (word, a) => {
    expect(article(word)).toBe(a);
    expect(withArticle(word)).toBe(`${a} ${word}`);
  });
});
