/**
 * `--break-glass <reason>` (issue 41), which every typed change command
 * takes: go through a freeze in force, with the break-glass approvers'
 * approval. Like `--release` it is taken out of the words before the
 * command's own parse. The reason is one quoted word, or the words after the
 * flag up to the next flag or the end (so it goes last). A read, or a form
 * (whose Break glass field takes the reason), given one is refused: it would be silently ignored.
 */
import { type Context, code, type Failure, type Outcome } from './context.js';
import { formsOfWord } from './forms.js';
import { flagNameOf, isFlagToken, type Token } from './tokenize.js';

/** The command words whose sub-commands change something (they take `--break-glass` and `--at`). */
export const CHANGE_WORDS: ReadonlySet<string> = new Set([
  'promote',
  'vessel',
  'formation',
  'region',
  'armada',
  'armadaset',
  'gameserver',
  'rollback',
]);

const FLAG = '--break-glass';

/** The words without `--break-glass` and its reason, and the reason; a usage when it is given wrongly. */
export function takeBreakGlass(
  ctx: Context,
  word: string,
  rest: readonly Token[],
): { rest: Token[]; reason?: string } | Failure {
  const at = rest.findIndex((t) => flagNameOf(t) === FLAG);
  if (at < 0) return { rest: [...rest] };
  const example = `${ctx.commandName} armada scale prod duel --min 4 ${FLAG} "servers crashing in the final"`;
  if (!CHANGE_WORDS.has(word))
    return ctx.fail(
      `\`${FLAG}\` goes with commands that change something; \`${word}\` only reads.`,
      formsOfWord(word),
      {
        example,
      },
    );
  const flag = rest[at] as Token;
  const eq = flag.value.indexOf('=');
  let end = at + 1;
  let reason: string;
  if (eq >= 0) reason = flag.value.slice(eq + 1);
  else if (rest[at + 1]?.quoted) {
    reason = (rest[at + 1] as Token).value;
    end = at + 2;
  } else {
    while (end < rest.length && !isFlagToken(rest[end] as Token)) end++;
    const words = rest.slice(at + 1, end);
    const first = words[0];
    const last = words.at(-1);
    reason = first && last ? ctx.tokenized.text.slice(first.start, last.end) : '';
  }
  reason = reason.trim().replace(/ {2,}/g, ' ');
  if (!reason)
    return ctx.fail(
      `\`${FLAG}\` needs a reason after it: why this change cannot wait for the freeze to end.`,
      formsOfWord(word),
      {
        example,
      },
    );
  if (rest.slice(end).some((t) => flagNameOf(t) === FLAG))
    return ctx.fail(`Give \`${FLAG}\` once.`, formsOfWord(word), { example });
  return { rest: [...rest.slice(0, at), ...rest.slice(end)], reason };
}

/** Puts the reason on the change `outcome` made; refuses it on a form or a read. */
export function withBreakGlass(ctx: Context, outcome: Outcome, reason: string | undefined): Outcome {
  if (reason === undefined || !outcome.ok) return outcome;
  const command = outcome.command;
  if (command.kind === 'change') return { ok: true, command: { ...command, breakGlass: reason } };
  if (command.kind === 'modal')
    return ctx.fail(
      `${code(FLAG)} goes with a typed change command, not a form: type the change in full with the flag last, or open the form and fill its Break glass field.`,
      formsOfWord(command.modal.split('.')[0] ?? ''),
    );
  return ctx.fail(
    `${code(FLAG)} goes with a typed change command, not \`${command.kind}\`, which only reads: type the change in full with the flag last.`,
    formsOfWord(command.kind.split('.')[0] ?? ''),
  );
}
