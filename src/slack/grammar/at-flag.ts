/**
 * `--at <time>` (issue 41), which every typed change command takes: the
 * change applies at that time instead of at its Confirm. Like
 * `--break-glass` it is taken out of the words before the command's own
 * parse. The time is one quoted word, `--at=<time>`, or the words after the
 * flag up to the next flag or the end (`--at 18:00 Europe/Berlin`, `--at in
 * 2h`). What the time means is the domain's to read (changes/schedule/when.ts),
 * with its clock; here it is only carried. A read or a form given one is refused.
 */
import { WHEN_EXAMPLES } from '../../changes/schedule/when.js';
import { CHANGE_WORDS } from './break-glass-flag.js';
import { type Context, code, type Failure, type Outcome } from './context.js';
import { formsOfWord } from './forms.js';
import { flagNameOf, isFlagToken, type Token } from './tokenize.js';

const FLAG = '--at';

/** The words without `--at` and its time, and the time as typed; a usage when it is given wrongly. */
export function takeAt(
  ctx: Context,
  word: string,
  rest: readonly Token[],
): { rest: Token[]; at?: string } | Failure {
  const index = rest.findIndex((t) => flagNameOf(t) === FLAG);
  if (index < 0) return { rest: [...rest] };
  const example = `${ctx.commandName} armada scale prod duel --min 4 ${FLAG} 18:00 Europe/Berlin`;
  if (!CHANGE_WORDS.has(word))
    return ctx.fail(
      `\`${FLAG}\` goes with commands that change something; \`${word}\` only reads.`,
      formsOfWord(word),
      {
        example,
      },
    );
  const flag = rest[index] as Token;
  const eq = flag.value.indexOf('=');
  let end = index + 1;
  let at: string;
  if (eq >= 0) at = flag.value.slice(eq + 1);
  else if (rest[index + 1]?.quoted) {
    at = (rest[index + 1] as Token).value;
    end = index + 2;
  } else {
    while (end < rest.length && !isFlagToken(rest[end] as Token)) end++;
    const words = rest.slice(index + 1, end);
    const first = words[0];
    const last = words.at(-1);
    at = first && last ? ctx.tokenized.text.slice(first.start, last.end) : '';
  }
  at = at.trim().replace(/\s+/g, ' ');
  if (!at)
    return ctx.fail(`\`${FLAG}\` needs a time after it: ${WHEN_EXAMPLES}.`, formsOfWord(word), { example });
  if (rest.slice(end).some((t) => flagNameOf(t) === FLAG))
    return ctx.fail(`Give \`${FLAG}\` once.`, formsOfWord(word), { example });
  return { rest: [...rest.slice(0, index), ...rest.slice(end)], at };
}

/** Puts the time on the change `outcome` made; refuses it on a form (whose When field says it) or a read. */
export function withAt(ctx: Context, outcome: Outcome, at: string | undefined): Outcome {
  if (at === undefined || !outcome.ok) return outcome;
  const command = outcome.command;
  if (command.kind === 'change') return { ok: true, command: { ...command, at } };
  const what =
    command.kind === 'modal'
      ? 'a form (its When field takes the time)'
      : `\`${command.kind}\`, which only reads`;
  return ctx.fail(
    `${code(FLAG)} goes with a typed change command, not ${what}.`,
    formsOfWord(
      command.kind === 'modal' ? (command.modal.split('.')[0] ?? '') : (command.kind.split('.')[0] ?? ''),
    ),
  );
}
