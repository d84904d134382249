/**
 * `--release <title-or-id>` and `--no-release`, which every change command
 * takes: which release the change joins. They are taken out of the words
 * before the command's own parse (so no form has to list them and no flag
 * loop has to skip them), then put on the change or change form the parse
 * made. A read given one is refused: it would be silently ignored.
 */
import type { ReleaseOption } from '../../releases/releases.js';
import { type Context, code, type Failure, type Outcome } from './context.js';
import { formsOfWord } from './forms.js';
import { flagNameOf, isFlagToken, type Token } from './tokenize.js';

/** The command words whose sub-commands change something (and so take the flags). */
const CHANGE_WORDS: ReadonlySet<string> = new Set([
  'promote',
  'vessel',
  'formation',
  'region',
  'armada',
  'armadaset',
]);

const NAMED = '--release';
const NONE = '--no-release';

/** The words without the release flags, and what they said; a usage when they are given wrongly. */
export function takeReleaseFlag(
  ctx: Context,
  word: string,
  rest: readonly Token[],
): { rest: Token[]; option?: ReleaseOption } | Failure {
  if (!CHANGE_WORDS.has(word)) return { rest: [...rest] };
  const kept: Token[] = [];
  let option: ReleaseOption | undefined;
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i] as Token;
    const flag = releaseFlag(token);
    if (!flag) {
      kept.push(token);
      continue;
    }
    if (option) return ctx.fail(`Give \`${NAMED}\` or \`${NONE}\` once.`, formsOfWord(word));
    if (flag === NONE) {
      if (token.value.includes('=')) return ctx.fail(`\`${NONE}\` takes no value.`, formsOfWord(word));
      option = { kind: 'none' };
      continue;
    }
    const eq = token.value.indexOf('=');
    const next = rest[i + 1];
    const ref = eq >= 0 ? token.value.slice(eq + 1) : next && !isFlagToken(next) ? next.value : '';
    if (eq < 0 && ref) i++;
    if (!ref.trim()) {
      return ctx.fail(
        `\`${NAMED}\` needs the release's title or id after it, in quotes when the title has spaces: \`${NAMED} "Season 4 launch"\`.`,
        formsOfWord(word),
      );
    }
    option = { kind: 'named', ref };
  }
  return { rest: kept, ...(option ? { option } : {}) };
}

/** Puts `option` on the change (or change form) `outcome` made; refuses it on anything else. */
export function withReleaseOption(
  ctx: Context,
  outcome: Outcome,
  option: ReleaseOption | undefined,
): Outcome {
  if (!option || !outcome.ok) return outcome;
  const command = outcome.command;
  if (command.kind === 'change' || (command.kind === 'modal' && command.modal !== 'logs.follow'))
    return { ok: true, command: { ...command, release: option } };
  const flag = option.kind === 'none' ? NONE : NAMED;
  return ctx.fail(
    `${code(flag)} goes with commands that change something; \`${command.kind}\` only reads.`,
    formsOfWord(command.kind.split('.')[0] ?? ''),
  );
}

function releaseFlag(token: Token): typeof NAMED | typeof NONE | undefined {
  const name = flagNameOf(token);
  return name === NAMED || name === NONE ? name : undefined;
}
