/**
 * What every part of the parser shares: the tokenized text, the configured
 * command name, and builders for usage answers that name the wrong argument,
 * the closest form and an example.
 */

import { truncate } from '../limits.js';
import type { Command, Usage } from './command.js';
import { type FormId, formsOfWord, getForm, renderExample, renderForm } from './forms.js';
import { argumentNameProblem } from './names.js';
import { closestWords } from './suggest.js';
import type { Token, Tokenized } from './tokenize.js';

/**
 * A parse result inside the parser. A failure may carry `corrected`: the
 * whole text with a mistyped word fixed, known to parse, which the top level
 * turns into a "did you mean".
 */
export type Outcome = { ok: true; command: Command } | { ok: false; usage: Usage; corrected?: string };

export type Failure = Extract<Outcome, { ok: false }>;

// User words quoted in problems are cut so a pasted essay cannot flood the answer.
const MAX_QUOTED = 60;

// Words from other tools that mean one of ours; too far apart for edit distance.
// A Map, so user words like `constructor` cannot reach Object.prototype.
const SYNONYMS = new Map<string, readonly string[]>([
  ['rm', ['remove', 'delete']],
  ['del', ['delete', 'remove']],
  ['delete', ['remove']],
  ['remove', ['delete']],
  ['new', ['create']],
  ['get', ['show']],
  ['describe', ['show']],
  ['list', ['vessels', 'images']],
  ['ls', ['vessels', 'images']],
  ['tail', ['logs']],
  ['finish', ['end']],
  ['stop', ['end']],
  ['begin', ['start']],
]);

/** User text as inline code in a problem sentence, cut short and without backticks that would end the span. */
export function code(text: string): string {
  const clean = text.replace(/`/g, "'");
  return `\`${clean.length > MAX_QUOTED ? `${clean.slice(0, MAX_QUOTED - 1)}…` : clean}\``;
}

/** "a, b or c". */
export function listWords(words: readonly string[], conjunction = 'or'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** The words of a form as users type them after the command name, e.g. `formation add`. */
export function formWords(id: FormId): string {
  return getForm(id).words.join(' ');
}

export class Context {
  constructor(
    readonly commandName: string,
    readonly tokenized: Tokenized,
    /** Parses a corrected text (no further slip checks), to test a suggestion before making it. */
    readonly reparse: (text: string) => Outcome,
  ) {}

  /** A successful parse. */
  ok(command: Command): Outcome {
    return { ok: true, command };
  }

  /** A usage answer quoting `ids` (closest first); the example defaults to the first form's. */
  fail(
    problem: string,
    ids: readonly FormId[],
    more: { example?: string; suggestion?: string } = {},
  ): Failure {
    const first = ids[0];
    const example = more.example ?? (first ? renderExample(first, this.commandName) : undefined);
    const usage: Usage = { problem, forms: ids.map((id) => renderForm(id, this.commandName)) };
    if (example !== undefined) usage.example = example;
    if (more.suggestion !== undefined) usage.suggestion = more.suggestion;
    return { ok: false, usage };
  }

  /** The normalised text with `token` replaced by `word`: the input as it would read with a typo fixed. */
  replaced(token: Token, word: string): string {
    const { text } = this.tokenized;
    return `${text.slice(0, token.start)}${word}${text.slice(token.end)}`.trim();
  }

  /** "Did you mean `/harbor <corrected>`?", cut to a readable length. */
  didYouMean(corrected: string): string {
    return `Did you mean \`${truncate(`${this.commandName} ${corrected}`, 200).replace(/`/g, "'")}\`?`;
  }

  /**
   * Exactly the positional arguments of form `id` (its `<name>` args, then
   * `[...]` optional ones), or a usage naming the missing, empty or extra one.
   * `also` lists other forms worth showing when something is missing.
   */
  positionals(id: FormId, tokens: readonly Token[], also: readonly FormId[] = []): string[] | Failure {
    const args = getForm(id).args;
    const required = args.filter((a) => a.startsWith('<'));
    const max = required.length + args.filter((a) => a.startsWith('[')).length;
    const forms = [id, ...also];
    if (tokens.length < required.length) {
      const missing = required[tokens.length] as string;
      return this.fail(`\`${formWords(id)}\` is missing \`${missing}\`.`, forms);
    }
    if (tokens.length > max) {
      const extra = tokens[max] as Token;
      const takes = max === 0 ? 'takes no arguments' : `takes ${args.map((a) => `\`${a}\``).join(' ')}`;
      return this.fail(`${code(extra.value)} is one argument too many: \`${formWords(id)}\` ${takes}.`, [id]);
    }
    const empty = tokens.findIndex((t) => t.value.trim() === '');
    if (empty >= 0) {
      const name = (args[empty] as string).replace(/^\[|\]$/g, '');
      return this.fail(`\`${name}\` is empty; give a value.`, [id]);
    }
    for (const [i, token] of tokens.entries()) {
      const placeholder = args[i] as string;
      const problem = argumentNameProblem(placeholder.replace(/^\[|\]$/g, ''), token.value);
      if (problem) return this.fail(`\`${placeholder}\` ${code(token.value)} is ${problem}.`, [id]);
    }
    // Environment names are lowercase DNS labels in the API: `Dev` can only mean dev.
    return tokens.map((t, i) =>
      args[i]?.replace(/^\[|\]$/g, '') === '<env>' ? t.value.toLowerCase() : t.value,
    );
  }

  /**
   * Dispatches on a sub-command word (`formation show`). An unknown word gets
   * a suggestion when it is close to a real one.
   */
  subCommand(
    word: string,
    tokens: readonly Token[],
    handlers: Record<string, (rest: Token[]) => Outcome>,
  ): Outcome {
    const subs = Object.keys(handlers);
    const ids = formsOfWord(word);
    const [sub, ...rest] = tokens;
    const choices = listWords(subs.map((s) => `\`${s}\``));
    if (!sub) return this.fail(`\`${word}\` needs a sub-command: ${choices}.`, ids);
    const key = sub.value.toLowerCase();
    // Own keys only: `constructor` or `__proto__` must not reach Object.prototype.
    const handler = Object.hasOwn(handlers, key) ? handlers[key] : undefined;
    if (handler) return handler(rest);
    const problem = `${code(sub.value)} is not a \`${word}\` sub-command; use ${choices}.`;
    return this.failWithGuess(problem, ids, sub, subs, (best) => `${word} ${best}`);
  }

  /**
   * A usage for a mistyped `token`, with "did you mean" when one of
   * `candidates` is close: the whole corrected command when it parses (tried
   * for the closest three), else the candidate words (shown via `label`).
   */
  failWithGuess(
    problem: string,
    ids: readonly FormId[],
    token: Token,
    candidates: readonly string[],
    label: (candidate: string) => string = (c) => c,
  ): Failure {
    const synonyms = (SYNONYMS.get(token.value.toLowerCase()) ?? []).filter((w) => candidates.includes(w));
    const close = [...new Set([...synonyms, ...closestWords(token.value, candidates)])].slice(0, 3);
    if (close.length === 0) return this.fail(problem, ids);
    for (const candidate of close) {
      const fixed = this.replaced(token, candidate);
      const retry = this.reparse(fixed);
      const corrected = retry.ok ? fixed : retry.corrected;
      if (corrected !== undefined) {
        return { ...this.fail(problem, ids, { suggestion: this.didYouMean(corrected) }), corrected };
      }
    }
    const words = listWords(close.map((c) => `\`${label(c)}\``));
    return this.fail(problem, ids, { suggestion: `Did you mean ${words}?` });
  }
}
