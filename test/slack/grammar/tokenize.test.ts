import { describe, expect, it } from '@jest/globals';
import { isFlagToken, lex, normalizeText, tokenize } from '../../../src/slack/grammar/tokenize.js';

const words = (text: string) => tokenize(text).tokens.map((t) => t.value);

describe('normalizeText', () => {
  it('replaces Slack links and e-mail addresses by their display text', () => {
    expect(normalizeText('<mailto:a@b.io|a@b.io> <http://x.io|x.io> <https://y.io>')).toBe(
      'a@b.io x.io https://y.io',
    );
    expect(normalizeText('<mailto:a@b.io>')).toBe('a@b.io');
  });

  it('decodes the entities Slack escapes, ampersand last', () => {
    expect(normalizeText('&lt;image&gt; a&amp;b &amp;lt;')).toBe('<image> a&b &lt;');
  });

  it('turns non-breaking and other unicode spaces into spaces and drops zero-width characters', () => {
    expect(normalizeText('vessels\u00a0dev\u2009x\u200by\tz\nw')).toBe('vessels dev xy z w');
  });
});

describe('tokenize', () => {
  it('splits on runs of spaces', () => {
    expect(words('  vessels   dev  ')).toEqual(['vessels', 'dev']);
  });

  it('honours straight and curly quotes of both kinds', () => {
    expect(words(`a "b c" 'd e' “f g” ‘h i’`)).toEqual(['a', 'b c', 'd e', 'f g', 'h i']);
  });

  it('accepts mismatched curly pairs that some clients produce', () => {
    expect(words('x ”a b” “c d“')).toEqual(['x', 'a b', 'c d']);
  });

  it('keeps apostrophes inside words and inside quoted text', () => {
    expect(words("Bob's build")).toEqual(["Bob's", 'build']);
    expect(words("'Bob's build' next")).toEqual(["Bob's build", 'next']);
    expect(words('Bob’s build')).toEqual(['Bob’s', 'build']);
  });

  it('opens a quote after = so --args="a b" stays one word', () => {
    expect(words('--args="--mode ranked" x')).toEqual(['--args=--mode ranked', 'x']);
  });

  it('keeps an empty quoted word', () => {
    expect(words('a "" b')).toEqual(['a', '', 'b']);
  });

  it('reports an unclosed quote instead of throwing, with the rest as the last word', () => {
    const result = tokenize('logs "dev lobby');
    expect(result.unbalanced).toEqual({ quote: '"', index: 5 });
    expect(result.tokens.map((t) => t.value)).toEqual(['logs', 'dev lobby']);
    expect(tokenize('a “b').unbalanced?.quote).toBe('“');
  });

  it('turns em and en dashes before a flag name into --', () => {
    expect(words('—follow –lines 5 -—container x')).toEqual(['--follow', '--lines', '5', '--container', 'x']);
  });

  it('leaves dashes alone elsewhere: plain hyphens, lone dashes, quoted words, negative numbers', () => {
    expect(words('--follow -f — -5 "—x" a—b')).toEqual(['--follow', '-f', '—', '-5', '—x', 'a—b']);
  });

  it('records offsets into the normalised text', () => {
    const { text, tokens } = tokenize('a  "b c" d');
    expect(tokens.map((t) => text.slice(t.start, t.end))).toEqual(['a', '"b c"', 'd']);
  });
});

describe('isFlagToken', () => {
  it('is true for unquoted words starting with dashes and a letter', () => {
    const flags = lex('--follow -f "--quoted" -5 -- x').tokens.map(isFlagToken);
    expect(flags).toEqual([true, true, false, false, false, false]);
  });
});
