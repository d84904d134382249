/**
 * `/harbor` text → Command or Usage. Total: every string gets an answer and
 * nothing throws, because whatever a user types must get a helpful reply
 * within Slack's 3 seconds. The parser checks shape only (which words, how
 * many, which flags); names and branches are the change engine's business.
 */
import { takeAt, withAt } from './at-flag.js';
import { takeBreakGlass, withBreakGlass } from './break-glass-flag.js';
import type { ParseResult } from './command.js';
import { Context, code, type Outcome } from './context.js';
import { COMMAND_WORDS, formsOfWord, subCommands } from './forms.js';
import { takeGuardFlag, withGuardFlag } from './guard-flag.js';
import {
  parseArmada,
  parseArmadaSet,
  parseArmadas,
  parseGameServer,
  parseRollback,
} from './parse-armadas.js';
import { parseFormation, parsePromote, parseRegion, parseVessel } from './parse-changes.js';
import { parseFreeze, parseFreezes, parseScheduled, parseUnfreeze } from './parse-freezes.js';
import {
  parseApprovals,
  parseFormations,
  parseHelp,
  parseHistory,
  parseImages,
  parseLogs,
  parseRegions,
  parseRelease,
  parseSites,
  parseVessels,
} from './parse-reads.js';
import { parseUnwatch, parseWatch, parseWatches } from './parse-watches.js';
import { takeReleaseFlag, withReleaseOption } from './release-flag.js';
import { closestWords } from './suggest.js';
import { lex, type Token, type Tokenized, tokenize } from './tokenize.js';

type Parser = (ctx: Context, rest: readonly Token[]) => Outcome;

const COMMANDS: Record<string, Parser> = {
  help: parseHelp,
  images: parseImages,
  promote: parsePromote,
  vessels: parseVessels,
  vessel: parseVessel,
  formations: parseFormations,
  formation: parseFormation,
  regions: parseRegions,
  region: parseRegion,
  sites: parseSites,
  armadas: parseArmadas,
  // The list holds both kinds: `armadasets <env>` is the same answer, not a dead end.
  armadasets: parseArmadas,
  armada: parseArmada,
  armadaset: parseArmadaSet,
  gameserver: parseGameServer,
  rollback: parseRollback,
  approvals: parseApprovals,
  history: parseHistory,
  watch: parseWatch,
  watches: parseWatches,
  unwatch: parseUnwatch,
  freeze: parseFreeze,
  freezes: parseFreezes,
  scheduled: parseScheduled,
  unfreeze: parseUnfreeze,
  logs: parseLogs,
  release: parseRelease,
};

// What people type when they want help.
const HELP_ALIASES = new Set(['?', '-h', '--help']);

// Commands whose free text may hold a lone quote (a title like `Bob's "big" day).
const FREE_TEXT = new Set(['help', 'release', 'freeze']);

/** Parses the text after the command name; `commandName` is used in the forms and examples of usage answers. */
export function parseCommand(text: string, commandName = '/harbor'): ParseResult {
  const outcome = parseTokenized(tokenize(text), commandName, true);
  return outcome.ok ? outcome : { ok: false, usage: outcome.usage };
}

function parseTokenized(tokenized: Tokenized, commandName: string, topLevel: boolean): Outcome {
  const ctx = new Context(commandName, tokenized, (fixed) => parseTokenized(lex(fixed), commandName, false));
  const [first, ...rest] = tokenized.tokens;
  if (!first) return ctx.ok({ kind: 'help' });
  const word = first.value.toLowerCase();
  if (HELP_ALIASES.has(word)) return parseHelp(ctx, rest);
  // Own keys only: `constructor` must not reach Object.prototype.
  const parser = Object.hasOwn(COMMANDS, word) ? COMMANDS[word] : undefined;
  if (!parser) return unknownCommand(ctx, first);
  const { unbalanced } = tokenized;
  if (unbalanced && !FREE_TEXT.has(word)) {
    const after = tokenized.text.slice(unbalanced.index, unbalanced.index + 20);
    return ctx.fail(
      `The quote ${unbalanced.quote} in ${code(after)} is never closed; close it or remove it.`,
      formsOfWord(word),
    );
  }
  // Every change command takes `--release` / `--no-release`; the command's own parse never sees them.
  // Likewise `--break-glass <reason>` (issue 41), taken first: its reason may hold words the others would read.
  // And `--at <time>` (a scheduled change), whose words are a time.
  const broken = takeBreakGlass(ctx, word, rest);
  if ('ok' in broken) return broken;
  const timed = takeAt(ctx, word, broken.rest);
  if ('ok' in timed) return timed;
  const taken = takeReleaseFlag(ctx, word, timed.rest);
  if ('ok' in taken) return taken;
  // `--guard <duration>` / `--no-guard` (issue 42) on the rollouts of a build.
  const guarded = takeGuardFlag(ctx, word, taken.rest);
  if ('ok' in guarded) return guarded;
  const outcome = withAt(
    ctx,
    withGuardFlag(
      ctx,
      withBreakGlass(ctx, withReleaseOption(ctx, parser(ctx, guarded.rest), taken.option), broken.reason),
      guarded.ask,
    ),
    timed.at,
  );
  return outcome.ok || !topLevel || outcome.corrected !== undefined ? outcome : withSlip(ctx, first, outcome);
}

function unknownCommand(ctx: Context, first: Token): Outcome {
  const problem = `${code(first.value)} is not a command. Commands: ${COMMAND_WORDS.join(', ')}.`;
  const best = closestWords(first.value, COMMAND_WORDS)[0];
  return ctx.failWithGuess(problem, best ? formsOfWord(best) : ['help'], first, COMMAND_WORDS);
}

/**
 * A valid command word can still be a singular/plural slip: `vessel dev`
 * meant `vessels dev`, `vessels create dev` meant `vessel create dev`. When
 * swapping the word makes the text parse, say so.
 */
function withSlip(ctx: Context, first: Token, failure: Extract<Outcome, { ok: false }>): Outcome {
  const word = first.value.toLowerCase();
  // `vessel create` used a real sub-command; `vessels create` would read it as an environment.
  const second = ctx.tokenized.tokens[1]?.value.toLowerCase();
  if (second !== undefined && subCommands(word).includes(second)) return failure;
  // `formation shwo` is a typo of a sub-command (the failure says so), not `formations shwo`.
  if (failure.usage.suggestion !== undefined && subCommands(word).length > 0) return failure;
  const alternatives = COMMAND_WORDS.filter((w) => w === `${word}s` || `${w}s` === word);
  for (const alternative of alternatives) {
    const fixed = ctx.replaced(first, alternative);
    if (!ctx.reparse(fixed).ok) continue;
    // Lead with the forms of the word they probably meant.
    const usage = ctx.fail(failure.usage.problem, formsOfWord(alternative), {
      suggestion: ctx.didYouMean(fixed),
    }).usage;
    usage.forms.push(...failure.usage.forms);
    return { ok: false, usage, corrected: fixed };
  }
  return failure;
}
