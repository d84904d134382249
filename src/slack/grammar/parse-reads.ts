/**
 * The commands that read or bookkeep rather than change the hosting API:
 * help, images, vessels, formations, regions, approvals, logs and releases.
 */
import { type Context, code, type Outcome } from './context.js';
import { flagPositionals, splitFlags } from './flags.js';
import type { FormId } from './forms.js';
import type { Token } from './tokenize.js';

/** Default and bounds of `logs --lines`. */
const LOG_LINES = { default: 50, min: 1, max: 1000 } as const;

/** `help [topic]`: the topic is everything after `help`; the help renderer resolves it. */
export function parseHelp(ctx: Context, rest: readonly Token[]): Outcome {
  const topic = rest
    .map((t) => t.value)
    .join(' ')
    .trim();
  return ctx.ok(topic ? { kind: 'help', topic } : { kind: 'help' });
}

/** `images <branch> [<image>[:<tag>]]`. */
export function parseImages(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'images', rest);
  if (!Array.isArray(args)) return args;
  const [branch, ref] = args as [string, string | undefined];
  if (branch.includes(':')) {
    return ctx.fail(
      `${code(branch)} looks like an image, not a branch: \`<branch>\` comes first.`,
      ['images'],
      { example: `${ctx.commandName} images dev ${branch}` },
    );
  }
  if (ref === undefined) return ctx.ok({ kind: 'images', branch });
  if (ref.startsWith(':')) {
    return ctx.fail(`${code(ref)} needs an image name before \`:\`, e.g. game-server${ref}.`, ['images']);
  }
  if (ref.endsWith(':')) {
    return ctx.fail(`${code(ref)} needs a tag after \`:\`, e.g. ${ref}1.2.0; or leave out \`:\`.`, [
      'images',
    ]);
  }
  return ctx.ok({ kind: 'images', branch, ref });
}

/** `vessels <env>`. */
export function parseVessels(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'vessels', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'vessels', environment: args[0] as string });
}

/** `formations <env>`. */
export function parseFormations(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'formations', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'formations', environment: args[0] as string });
}

/** `regions <env>`. */
export function parseRegions(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'regions', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'regions', environment: args[0] as string });
}

/** `sites [<region>]`: Sites are cluster-scoped, so no environment (every one the asker may read). */
export function parseSites(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'sites', rest);
  if (!Array.isArray(args)) return args;
  const region = args[0];
  return ctx.ok({ kind: 'sites', ...(region !== undefined ? { region } : {}) });
}

/** `approvals`. */
export function parseApprovals(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'approvals', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'approvals' });
}

/** `history [<env-or-name>]`. */
export function parseHistory(ctx: Context, rest: readonly Token[]): Outcome {
  const split = splitFlags(ctx, 'history', rest);
  if ('ok' in split) return split;
  const [filter, ...extra] = split.positionals;
  if (extra.length > 0) {
    return ctx.fail('`history` takes at most one environment or name.', ['history'], {
      example: `${ctx.commandName} history prod`,
    });
  }
  return ctx.ok(filter ? { kind: 'history', filter: filter.value } : { kind: 'history' });
}

/** `logs <env> <vessel> [--follow] [--lines <n>] [--container <name>]`, flags in any order. */
export function parseLogs(ctx: Context, rest: readonly Token[]): Outcome {
  const split = splitFlags(ctx, 'logs', rest);
  if ('ok' in split) return split;
  // `logs <env>` alone: the "Tail logs" form asks which vessel to follow.
  if (split.positionals.length === 1 && split.flags.length === 0) {
    const args = ctx.positionals('logs.modal', split.positionals);
    if (!Array.isArray(args)) return args;
    return ctx.ok({ kind: 'modal', modal: 'logs.follow', environment: args[0] as string });
  }
  const args = flagPositionals(ctx, 'logs', split, ['logs.modal']);
  if (!Array.isArray(args)) return args;
  let follow = false;
  let lines: number = LOG_LINES.default;
  let container: string | undefined;
  const seen = new Set<string>();
  for (const flag of split.flags) {
    if (seen.has(flag.name)) return ctx.fail(`\`${flag.name}\` is given twice; give it once.`, ['logs']);
    seen.add(flag.name);
    if (flag.name === '--follow') follow = true;
    else if (flag.name === '--container') container = flag.value;
    else if (flag.name === '--lines') {
      const value = flag.value ?? '';
      const n = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
      if (!(n >= LOG_LINES.min && n <= LOG_LINES.max)) {
        return ctx.fail(
          `\`--lines\` must be a whole number from ${LOG_LINES.min} to ${LOG_LINES.max}, not ${code(value)}.`,
          ['logs'],
        );
      }
      lines = n;
    }
  }
  const [environment, vessel] = args as [string, string];
  return ctx.ok({
    kind: 'logs',
    environment,
    vessel,
    follow,
    lines,
    ...(container === undefined ? {} : { container }),
  });
}

/** `release start <title...>` and `release end <title-or-id...>`: the rest of the text, quotes optional. */
export function parseRelease(ctx: Context, rest: readonly Token[]): Outcome {
  return ctx.subCommand('release', rest, {
    start: (words) => {
      const title = restOfText(ctx, words);
      if (!title) return ctx.fail('`release start` is missing `<title...>`.', ['release.start']);
      return ctx.ok({ kind: 'release.start', title });
    },
    end: (words) => {
      const ref = restOfText(ctx, words);
      if (!ref) return ctx.fail('`release end` is missing `<title-or-id...>`.', ['release.end']);
      return ctx.ok({ kind: 'release.end', ref });
    },
  });
}

/** Exactly the positionals of a form without flags (any flag is a usage). */
export function simplePositionals(
  ctx: Context,
  id: FormId,
  rest: readonly Token[],
  also: readonly FormId[] = [],
): string[] | Extract<Outcome, { ok: false }> {
  const split = splitFlags(ctx, id, rest);
  if ('ok' in split) return split;
  return ctx.positionals(id, split.positionals, also);
}

/** A free-text argument as typed (see below). */
// A free-text argument as typed: one quoted word loses its quotes; anything
// else is the raw text, so apostrophes, dashes and stray quotes survive.
export function restOfText(ctx: Context, words: readonly Token[]): string {
  const first = words[0];
  if (!first) return '';
  if (words.length === 1 && first.quoted) return first.value.trim();
  return ctx.tokenized.text.slice(first.start).trim().replace(/ {2,}/g, ' ');
}
