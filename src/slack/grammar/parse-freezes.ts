/**
 * `freeze <env> [for <duration> | until <time>] [reason...]`, `unfreeze <env>`
 * and `freezes` (issue 41). Durations are the policy's (`90s`, `15m`, `2h`,
 * `1d`: policy/duration.ts); times are ISO 8601 with an offset
 * (format/instant.ts). Whether a time is still ahead is the domain's to say.
 */
import { INSTANT_EXAMPLES, parseInstant } from '../../format/instant.js';
import { DURATION_FORMS, parseDuration } from '../../policy/duration.js';
import { type Context, code, type Outcome } from './context.js';
import { argumentNameProblem } from './names.js';
import { restOfText, simplePositionals } from './parse-reads.js';
import { isFlagToken, type Token } from './tokenize.js';

/** `freeze <env> [for <duration> | until <time>] [reason...]`. */
export function parseFreeze(ctx: Context, rest: readonly Token[]): Outcome {
  const [envToken, ...more] = rest;
  if (!envToken || envToken.value.trim() === '') return ctx.fail('`freeze` is missing `<env>`.', ['freeze']);
  const flag = rest.find(isFlagToken);
  if (flag)
    return ctx.fail(`\`freeze\` takes no flags (${code(flag.value)}); put the reason in words.`, ['freeze']);
  const env = envToken.value.toLowerCase();
  const nameProblem = argumentNameProblem('<env>', env);
  if (nameProblem) return ctx.fail(`\`<env>\` ${code(envToken.value)} is ${nameProblem}.`, ['freeze']);
  const word = more[0]?.value.toLowerCase();
  const value = more[1];
  let span: { forMs: number } | { until: number } | undefined;
  if (word === 'for') {
    if (!value)
      return ctx.fail(`\`for\` needs a duration: ${DURATION_FORMS}.`, ['freeze'], {
        example: `${ctx.commandName} freeze ${env} for 2h tournament final`,
      });
    const parsed = parseDuration(value.value);
    if ('problem' in parsed)
      return ctx.fail(`${code(value.value)} is not a duration: ${parsed.problem}.`, ['freeze'], {
        example: `${ctx.commandName} freeze ${env} for 90m maintenance`,
      });
    span = { forMs: parsed.ms };
  } else if (word === 'until') {
    if (!value)
      return ctx.fail(
        `\`until\` needs a time: ISO 8601 with an offset, like ${INSTANT_EXAMPLES}.`,
        ['freeze'],
        {
          example: `${ctx.commandName} freeze ${env} until 2026-12-01T18:00+01:00 season launch`,
        },
      );
    const parsed = parseInstant(value.value);
    if ('problem' in parsed)
      return ctx.fail(`${code(value.value)} is not a time: ${parsed.problem}.`, ['freeze'], {
        example: `${ctx.commandName} freeze ${env} until 2026-12-01T18:00+01:00 season launch`,
      });
    span = { until: parsed.ms };
  }
  const reason = restOfText(ctx, span ? more.slice(2) : more);
  return ctx.ok({ kind: 'freeze', environment: env, ...(span ?? {}), ...(reason ? { reason } : {}) });
}

/** `unfreeze <env>`. */
export function parseUnfreeze(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'unfreeze', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'unfreeze', environment: args[0] as string });
}

/** `freezes`. */
export function parseFreezes(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'freezes', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'freezes' });
}

/** `scheduled [<env>]`: the scheduled changes not started yet. */
export function parseScheduled(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'scheduled', rest);
  if (!Array.isArray(args)) return args;
  const env = args[0]?.toLowerCase();
  return ctx.ok({ kind: 'scheduled', ...(env ? { environment: env } : {}) });
}
