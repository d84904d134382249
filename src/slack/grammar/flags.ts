/**
 * Separates a form's flags from its positional arguments. Flags may sit
 * anywhere after the command words, take their value from the next word or
 * after `=` (`--lines=20`), and are matched case-insensitively. Anything
 * unknown gets a usage listing the flags the form does take.
 */
import { type Context, code, type Failure, formWords, listWords } from './context.js';
import { type FormId, getForm } from './forms.js';
import { closestWords } from './suggest.js';
import { isFlagToken, type Token } from './tokenize.js';

/** A flag as given: its canonical name, its value (for flags that take one), and the word it came from. */
export interface FlagUse {
  name: string;
  value?: string;
  token: Token;
}

export interface SplitFlags {
  positionals: Token[];
  flags: FlagUse[];
  /** For each positional, the flag whose value came just before it (to explain stray words). */
  after: (FlagUse | undefined)[];
}

/** The positionals and flags of form `id`, or a usage for an unknown flag or a missing value. */
export function splitFlags(ctx: Context, id: FormId, tokens: readonly Token[]): SplitFlags | Failure {
  const specs = getForm(id).flags;
  const out: SplitFlags = { positionals: [], flags: [], after: [] };
  let previous: FlagUse | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (!isFlagToken(token)) {
      out.positionals.push(token);
      out.after.push(previous);
      previous = undefined;
      continue;
    }
    const eq = token.value.indexOf('=');
    const given = eq < 0 ? token.value : token.value.slice(0, eq);
    const spec = specs.find((s) => s.name === given.toLowerCase());
    if (!spec) return unknownFlag(ctx, id, given);
    if (!spec.value) {
      if (eq >= 0)
        return ctx.fail(`\`${spec.name}\` takes no value; drop ${code(token.value.slice(eq))}.`, [id]);
      previous = { name: spec.name, token };
      out.flags.push(previous);
      continue;
    }
    let value: string;
    if (eq >= 0) {
      value = token.value.slice(eq + 1);
    } else {
      const next = tokens[i + 1];
      if (!next || isFlagToken(next)) return missingValue(ctx, id, spec.name, spec.value);
      value = next.value;
      i++;
    }
    if (value === '' && spec.name !== '--args') return missingValue(ctx, id, spec.name, spec.value);
    previous = { name: spec.name, value, token };
    out.flags.push(previous);
  }
  return out;
}

/** A usage for a positional word left over among flags, hinting at quotes when it followed `--args`. */
function strayWord(ctx: Context, id: FormId, token: Token, after: FlagUse | undefined): Failure {
  if (after?.name === '--args') {
    return ctx.fail(
      `${code(token.value)} is outside the quotes of \`--args\`; put all the container arguments in one pair of quotes, e.g. --args "--mode ranked".`,
      [id],
    );
  }
  const takes = getForm(id)
    .args.map((a) => `\`${a}\``)
    .join(' ');
  return ctx.fail(`${code(token.value)} is one argument too many: \`${formWords(id)}\` takes ${takes}.`, [
    id,
  ]);
}

function missingValue(ctx: Context, id: FormId, name: string, placeholder: string): Failure {
  const hint = name === '--args' ? ', in quotes, e.g. --args "--mode ranked"' : '';
  return ctx.fail(`\`${name}\` needs a value \`${placeholder}\`${hint}.`, [id]);
}

function unknownFlag(ctx: Context, id: FormId, given: string): Failure {
  const specs = getForm(id).flags;
  const names = specs.map((s) => s.name);
  const where = `\`${formWords(id)}\``;
  if (names.length === 0) return ctx.fail(`${where} takes no flags; remove ${code(given)}.`, [id]);
  const bare = given.replace(/^-+/, '').toLowerCase();
  // `-f` is how tail spells --follow; a lone letter matches the flag it starts.
  const close =
    bare.length === 1
      ? names.filter((n) => n.startsWith(`--${bare}`))
      : closestWords(
          bare,
          names.map((n) => n.slice(2)),
        ).map((n) => `--${n}`);
  const allowed = listWords(
    specs.map((s) => `\`${s.value ? `${s.name} ${s.value}` : s.name}\``),
    'and',
  );
  const more: { suggestion?: string } = {};
  if (close[0]) more.suggestion = `Did you mean \`${close[0]}\`?`;
  return ctx.fail(`${code(given)} is not a flag of ${where}; it takes ${allowed}.`, [id], more);
}

/** The positionals of a form with flags: like Context.positionals, but an extra word is explained by the flag before it. */
export function flagPositionals(
  ctx: Context,
  id: FormId,
  split: SplitFlags,
  also: readonly FormId[] = [],
): string[] | Failure {
  const max = getForm(id).args.length;
  const extra = split.positionals[max];
  if (extra) return strayWord(ctx, id, extra, split.after[max]);
  return ctx.positionals(id, split.positionals, also);
}
