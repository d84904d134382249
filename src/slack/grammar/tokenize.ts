/**
 * Turns slash-command text into words. Slack rewrites what people type: with
 * `should_escape: false` it wraps links and e-mail addresses in `<url|label>`
 * and escapes `&`, `<`, `>`; many clients curl quotes and turn `--` into an em
 * dash; pasted text brings non-breaking spaces. We undo all of that so the
 * parser sees what the user meant. Lexing never throws: an unclosed quote is
 * reported in the result and the parser decides whether it matters.
 */

/** One word of the command, with where it sits in the normalised text. */
export interface Token {
  /** The word without its quotes (and with a leading em dash turned into `--`). */
  value: string;
  /** The word began with a quote, so it is never a flag. */
  quoted: boolean;
  /** Offset of the word's first character (a quote, if any) in the normalised text. */
  start: number;
  /** Offset just past the word's last character. */
  end: number;
}

export interface Tokenized {
  /** The text after undoing Slack's formatting; token offsets point into it. */
  text: string;
  tokens: Token[];
  /** Set when a quote was never closed; the last token then runs to the end of the text. */
  unbalanced?: { quote: string; index: number };
}

const DOUBLE_QUOTES = '"“”„';
const SINGLE_QUOTES = "'‘’‚";

// Slack's link markup: `<target|label>` shows label; a bare `<http://x>` shows the URL.
const LABELLED_LINK = /<([^<>|]*)\|([^<>]*)>/g;
const BARE_LINK = /<((?:https?|mailto|tel):[^<>|]*)>/g;
// Zero-width characters some clients insert around autocorrected text.
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
// A run of dash-like characters that autocorrect made of `--` before a flag name.
const DASHES = /^[-\u2010-\u2015\u2212]+(?=\p{L})/u;

/** Undoes Slack's link markup and entity escaping, and turns every kind of whitespace into a plain space. */
export function normalizeText(text: string): string {
  return text
    .replace(LABELLED_LINK, (_m, _target: string, label: string) => label)
    .replace(BARE_LINK, (_m, url: string) => url.replace(/^mailto:/i, ''))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(ZERO_WIDTH, '')
    .replace(/\s/gu, ' ');
}

/** Normalises `text` (see normalizeText) and splits it into words. */
export function tokenize(text: string): Tokenized {
  return lex(normalizeText(text));
}

/**
 * Splits already-normalised text into words on spaces. A quote opens at the
 * start of a word or right after `=` (as in `--args="a b"`); it closes at the
 * next quote of the same kind that ends a word, so apostrophes inside a quoted
 * title (`'Bob's build'`) survive.
 */
export function lex(text: string): Tokenized {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ' ') {
      i++;
      continue;
    }
    const start = i;
    const quoted = isQuote(text[i]);
    let value = '';
    while (i < text.length && text[i] !== ' ') {
      const ch = text[i] as string;
      if (isQuote(ch) && (i === start || text[i - 1] === '=')) {
        const close = closingQuote(text, i);
        if (close < 0) {
          tokens.push({ value: value + text.slice(i + 1), quoted, start, end: text.length });
          return { text, tokens, unbalanced: { quote: ch, index: i } };
        }
        value += text.slice(i + 1, close);
        i = close + 1;
        continue;
      }
      value += ch;
      i++;
    }
    tokens.push({ value: quoted ? value : value.replace(DASHES, dashesToFlag), quoted, start, end: i });
  }
  return { text, tokens };
}

/** Whether a token is a flag (`--follow`, `-f`): unquoted, dashes, then a letter. */
export function isFlagToken(token: Token): boolean {
  return !token.quoted && /^--?\p{L}/u.test(token.value);
}

/** A flag token's name, lower-cased and without its `=value` (`--Release=x` -> `--release`); undefined for other tokens. */
export function flagNameOf(token: Token): string | undefined {
  if (!isFlagToken(token)) return undefined;
  const eq = token.value.indexOf('=');
  return (eq >= 0 ? token.value.slice(0, eq) : token.value).toLowerCase();
}

function dashesToFlag(dashes: string): string {
  return /^-+$/.test(dashes) ? dashes : '--';
}

function isQuote(ch: string | undefined): boolean {
  return ch !== undefined && (DOUBLE_QUOTES.includes(ch) || SINGLE_QUOTES.includes(ch));
}

// The offset of the quote that closes the one at `open`, or -1. Prefers a quote
// that ends a word; falls back to any quote of the same kind.
function closingQuote(text: string, open: number): number {
  const kind = DOUBLE_QUOTES.includes(text[open] as string) ? DOUBLE_QUOTES : SINGLE_QUOTES;
  let fallback = -1;
  for (let j = open + 1; j < text.length; j++) {
    if (!kind.includes(text[j] as string)) continue;
    const next = text[j + 1];
    if (next === undefined || next === ' ') return j;
    if (fallback < 0) fallback = j;
  }
  return fallback;
}
