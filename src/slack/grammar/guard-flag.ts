/**
 * `--guard <duration>` and `--no-guard` (issue 42), which the rollouts of a
 * build take (promote, armada image, armadaset image: the operations whose
 * descriptor says `guardable`): ask for the policy's guard, with a window of
 * its own, or decline an optional one. Taken out of the words before the
 * command's own parse, as `--release` is; whether the policy allows it is
 * the engine's to judge (changes/guard-choice.ts).
 */
import type { GuardAsk } from '../../changes/guard-choice.js';
import { isGuardable } from '../../operations/index.js';
import { DURATION_FORMS, parseDuration } from '../../policy/duration.js';
import { MAX_GUARD_MS, MAX_GUARD_WORDS } from '../../policy/guard-window.js';
import { type Context, code, type Failure, type Outcome } from './context.js';
import { formsOfWord } from './forms.js';
import type { Token } from './tokenize.js';
import { flagNameOf } from './tokenize.js';

const GUARD = '--guard';
const NO_GUARD = '--no-guard';

/** The words without the guard flags, and what they asked; a usage when given wrongly. */
export function takeGuardFlag(
  ctx: Context,
  word: string,
  rest: readonly Token[],
): { rest: Token[]; ask?: GuardAsk } | Failure {
  const at = rest.findIndex((t) => flagNameOf(t) === GUARD || flagNameOf(t) === NO_GUARD);
  if (at < 0) return { rest: [...rest] };
  const example = `${ctx.commandName} armada image prod duel game-server:1.2.0 ${GUARD} 15m`;
  const flags = rest.filter((t) => flagNameOf(t) === GUARD || flagNameOf(t) === NO_GUARD);
  if (flags.length > 1)
    return ctx.fail(`Give one of ${code(GUARD)} or ${code(NO_GUARD)}, once.`, formsOfWord(word), { example });
  const flag = rest[at] as Token;
  if (flagNameOf(flag) === NO_GUARD) {
    if (flag.value.includes('='))
      return ctx.fail(`${code(NO_GUARD)} takes no value.`, formsOfWord(word), { example });
    return { rest: [...rest.slice(0, at), ...rest.slice(at + 1)], ask: { off: true } };
  }
  const eq = flag.value.indexOf('=');
  const text = eq >= 0 ? flag.value.slice(eq + 1) : rest[at + 1]?.value;
  const end = eq >= 0 ? at + 1 : at + 2;
  if (text === undefined || text === '' || (eq < 0 && flagNameOf(rest[at + 1] as Token) !== undefined))
    return ctx.fail(`${code(GUARD)} needs a duration after it: ${DURATION_FORMS}.`, formsOfWord(word), {
      example,
    });
  const parsed = parseDuration(text);
  if ('problem' in parsed)
    return ctx.fail(`${code(GUARD)}: ${parsed.problem}.`, formsOfWord(word), { example });
  if (parsed.ms > MAX_GUARD_MS)
    return ctx.fail(`${code(GUARD)}: expected ${MAX_GUARD_WORDS}, got ${code(text)}.`, formsOfWord(word), {
      example,
    });
  return { rest: [...rest.slice(0, at), ...rest.slice(end)], ask: { withinMs: parsed.ms } };
}

/** Puts the guard ask on the change `outcome` made; refuses it on anything but a typed rollout of a build. */
export function withGuardFlag(ctx: Context, outcome: Outcome, ask: GuardAsk | undefined): Outcome {
  if (ask === undefined || !outcome.ok) return outcome;
  const command = outcome.command;
  const flag = 'off' in ask ? NO_GUARD : GUARD;
  if (command.kind === 'change' && isGuardable(command.operation))
    return { ok: true, command: { ...command, guard: ask } };
  const word =
    command.kind === 'modal'
      ? (command.modal.split('.')[0] ?? '')
      : ((command.kind === 'change' ? command.operation : command.kind).split('.')[0] ?? '');
  return ctx.fail(
    `${code(flag)} goes with a typed rollout of a build (\`promote\`, \`armada image\`, \`armadaset image\`), not ${command.kind === 'modal' ? 'a form' : `\`${command.kind === 'change' ? command.operation : command.kind}\``}.`,
    formsOfWord(word),
  );
}
