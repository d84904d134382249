/**
 * The commands that change something: promote, vessel, formation and region.
 * Each produces the change engine's request shape (or opens a modal); names
 * and branches are checked by the engine, which explains them better.
 */

import { FORMATION_ADD } from '../../changes/operations/formation.add/id.js';
import { FORMATION_REMOVE } from '../../changes/operations/formation.remove/id.js';
import { IMAGE_PROMOTE } from '../../changes/operations/image.promote/id.js';
import { REGION_CREATE } from '../../changes/operations/region.create/id.js';
import { REGION_SCHEDULING } from '../../changes/operations/region.scheduling/id.js';
import { VESSEL_CREATE } from '../../changes/operations/vessel.create/id.js';
import { VESSEL_DELETE } from '../../changes/operations/vessel.delete/id.js';
import { truncate } from '../limits.js';
import { type Context, code, type Outcome } from './context.js';
import { type FlagUse, flagPositionals, splitFlags } from './flags.js';
import { simplePositionals } from './parse-reads.js';
import { lex, type Token } from './tokenize.js';

/** The region scheduling strategies, as the engine spells them. */
export const SCHEDULING = ['Packed', 'Distributed'] as const;

const PROMOTE_FORMS = ['promote', 'promote.modal'] as const;
const KEYWORDS = ['from', 'to'] as const;
type Keyword = (typeof KEYWORDS)[number];
const BRANCH_OF: Record<Keyword, string> = { from: '<source-branch>', to: '<target-branch>' };

/** `promote` (modal) or `promote <image>:<tag> from <source-branch> to <target-branch>` (`to` may come first). */
export function parsePromote(ctx: Context, rest: readonly Token[]): Outcome {
  const words = simplePositionalTokens(ctx, rest);
  if (!Array.isArray(words)) return words;
  const [ref, ...tail] = words;
  if (!ref) return ctx.ok({ kind: 'modal', modal: 'promote' });
  if (keywordOf(ref)) {
    return ctx.fail(`\`promote\` is missing \`<image>:<tag>\` before ${code(ref.value)}.`, PROMOTE_FORMS);
  }
  const colon = ref.value.lastIndexOf(':');
  const image = colon < 0 ? ref.value : ref.value.slice(0, colon);
  const tag = colon < 0 ? '' : ref.value.slice(colon + 1);
  if (!image) {
    return ctx.fail(`\`<image>:<tag>\` needs an image name before \`:\`, e.g. game-server:${tag}.`, [
      'promote',
    ]);
  }
  if (!tag) return ctx.fail(`\`<image>:<tag>\` needs a tag, e.g. ${image}:1.2.0`, ['promote']);
  const branches: Partial<Record<Keyword, string>> = {};
  for (let i = 0; i < tail.length; i += 2) {
    const word = tail[i] as Token;
    const keyword = keywordOf(word);
    if (!keyword) {
      if (branches.from !== undefined && branches.to !== undefined) {
        return ctx.fail(`${code(word.value)} is one argument too many for \`promote\`.`, ['promote']);
      }
      const problem = `Expected \`from <source-branch>\` or \`to <target-branch>\`, not ${code(word.value)}.`;
      return ctx.failWithGuess(problem, ['promote'], word, KEYWORDS);
    }
    if (branches[keyword] !== undefined) {
      return ctx.fail(`\`${keyword}\` is given twice; give it once.`, ['promote']);
    }
    const branch = tail[i + 1];
    if (!branch || keywordOf(branch) || branch.value === '') {
      return ctx.fail(`\`${keyword}\` needs a \`${BRANCH_OF[keyword]}\` after it.`, ['promote']);
    }
    branches[keyword] = branch.value;
  }
  const { from: sourceBranch, to: targetBranch } = branches;
  const missing = sourceBranch === undefined ? 'from' : targetBranch === undefined ? 'to' : undefined;
  if (missing || sourceBranch === undefined || targetBranch === undefined) {
    const keyword = missing ?? 'from';
    return ctx.fail(`\`promote\` needs \`${keyword} ${BRANCH_OF[keyword]}\`.`, ['promote']);
  }
  return ctx.ok({
    kind: 'change',
    operation: IMAGE_PROMOTE,
    input: { image, tag, sourceBranch, targetBranch },
  });
}

/** `vessel show <env> <vessel>`, `vessel create <env>` (modal) and `vessel delete <env> <vessel>`. */
export function parseVessel(ctx: Context, rest: readonly Token[]): Outcome {
  return ctx.subCommand('vessel', rest, {
    show: (words) => {
      const args = simplePositionals(ctx, 'vessel.show', words);
      if (!Array.isArray(args)) return args;
      const [environment, vessel] = args as [string, string];
      return ctx.ok({ kind: 'vessel.show', environment, vessel });
    },
    create: (words) => {
      const args = simplePositionals(ctx, VESSEL_CREATE, words);
      if (!Array.isArray(args)) return args;
      return ctx.ok({ kind: 'modal', modal: VESSEL_CREATE, environment: args[0] as string });
    },
    delete: (words) => {
      const args = simplePositionals(ctx, VESSEL_DELETE, words);
      if (!Array.isArray(args)) return args;
      // The form's arity (forms.ts) was checked by simplePositionals.
      const [environment, vessel] = args as [string, string];
      return ctx.ok({ kind: 'change', operation: VESSEL_DELETE, input: { environment, vessel } });
    },
  });
}

/** `formation show|add|remove ...`. */
export function parseFormation(ctx: Context, rest: readonly Token[]): Outcome {
  return ctx.subCommand('formation', rest, {
    show: (words) => {
      const args = simplePositionals(ctx, 'formation.show', words);
      if (!Array.isArray(args)) return args;
      const [environment, formation] = args as [string, string];
      return ctx.ok({ kind: 'formation.show', environment, formation });
    },
    add: (words) => parseFormationAdd(ctx, words),
    remove: (words) => {
      // Without a vessel: the form asks for it (and for the formation, when not given).
      if (words.length > 0 && words.length < 3) {
        const place = simplePositionals(ctx, 'formation.remove.modal', words);
        if (!Array.isArray(place)) return place;
        const [environment, formation] = place as [string, string | undefined];
        return ctx.ok({
          kind: 'modal',
          modal: FORMATION_REMOVE,
          environment,
          ...(formation ? { formation } : {}),
        });
      }
      const args = simplePositionals(ctx, FORMATION_REMOVE, words, ['formation.remove.modal']);
      if (!Array.isArray(args)) return args;
      const [environment, formation, vessel] = args as [string, string, string];
      return ctx.ok({
        kind: 'change',
        operation: FORMATION_REMOVE,
        input: { environment, formation, vessel },
      });
    },
  });
}

/** `region show|create|scheduling ...`. */
export function parseRegion(ctx: Context, rest: readonly Token[]): Outcome {
  return ctx.subCommand('region', rest, {
    show: (words) => {
      const args = simplePositionals(ctx, 'region.show', words);
      if (!Array.isArray(args)) return args;
      const [environment, region] = args as [string, string];
      return ctx.ok({ kind: 'region.show', environment, region });
    },
    create: (words) => {
      const args = simplePositionals(ctx, REGION_CREATE, words);
      if (!Array.isArray(args)) return args;
      return ctx.ok({ kind: 'modal', modal: REGION_CREATE, environment: args[0] as string });
    },
    scheduling: (words) => {
      // Without a strategy: the form asks for what is missing.
      if (words.length > 0 && words.length < 4) {
        const place = simplePositionals(ctx, 'region.scheduling.modal', words);
        if (!Array.isArray(place)) return place;
        const [environment, region, regionType] = place as [string, string | undefined, string | undefined];
        return ctx.ok({
          kind: 'modal',
          modal: REGION_SCHEDULING,
          environment,
          ...(region ? { region } : {}),
          ...(regionType ? { regionType } : {}),
        });
      }
      const args = simplePositionals(ctx, REGION_SCHEDULING, words, ['region.scheduling.modal']);
      if (!Array.isArray(args)) return args;
      const [environment, region, type, given] = args as [string, string, string, string];
      const scheduling = SCHEDULING.find((s) => s.toLowerCase() === given.toLowerCase());
      if (!scheduling) {
        const problem = `\`<Packed|Distributed>\` must be \`Packed\` or \`Distributed\`, not ${code(given)}.`;
        return ctx.failWithGuess(problem, [REGION_SCHEDULING], words[3] as Token, SCHEDULING);
      }
      return ctx.ok({
        kind: 'change',
        operation: REGION_SCHEDULING,
        input: { environment, region, type, scheduling },
      });
    },
  });
}

/**
 * `formation add <env> <formation>` (modal) or the full form with overrides:
 * each `--container` starts one, `--image`, `--args`, `--command` and `--env`
 * (repeatable) fill in the current one.
 */
function parseFormationAdd(ctx: Context, words: readonly Token[]): Outcome {
  const split = splitFlags(ctx, FORMATION_ADD, words);
  if ('ok' in split) return split;
  if (split.positionals.length === 2 && split.flags.length === 0) {
    const args = ctx.positionals('formation.add.modal', split.positionals);
    if (!Array.isArray(args)) return args;
    return ctx.ok({ kind: 'modal', modal: FORMATION_ADD, environment: args[0], formation: args[1] });
  }
  const args = flagPositionals(ctx, FORMATION_ADD, split, ['formation.add.modal']);
  if (!Array.isArray(args)) return args;
  const [environment, formation, vessel, region] = args as [string, string, string, string];
  const overrides: {
    container: string;
    image?: string;
    args?: string[];
    command?: string[];
    env?: string[];
  }[] = [];
  for (const flag of split.flags) {
    const value = flag.value ?? '';
    if (flag.name === '--container') {
      overrides.push({ container: value });
      continue;
    }
    const current = overrides[overrides.length - 1];
    if (!current) return needsContainer(ctx, args, flag);
    if (flag.name === '--image') {
      if (current.image !== undefined) return givenTwice(ctx, flag, current.container);
      current.image = value;
    } else if (flag.name === '--args' || flag.name === '--command') {
      const field = flag.name === '--args' ? 'args' : 'command';
      if (current[field] !== undefined) return givenTwice(ctx, flag, current.container);
      const inner = lex(value);
      if (inner.unbalanced) {
        return ctx.fail(
          `The quote ${inner.unbalanced.quote} inside \`${flag.name}\` is never closed; close it or remove it.`,
          [FORMATION_ADD],
        );
      }
      current[field] = inner.tokens.map((t) => t.value);
    } else if (flag.name === '--env') {
      // One variable per --env, as NAME=value; the engine checks the name.
      current.env = [...(current.env ?? []), value];
    }
  }
  return ctx.ok({
    kind: 'change',
    operation: FORMATION_ADD,
    input: { environment, formation, vessel, region, overrides },
  });
}

function needsContainer(ctx: Context, args: readonly string[], flag: FlagUse): Outcome {
  const given = truncate(flag.value ?? '', 60);
  const value = flag.name === '--args' || flag.name === '--command' ? `"${given}"` : given;
  return ctx.fail(
    `\`${flag.name}\` needs \`--container <name>\` before it, to say which container it applies to.`,
    [FORMATION_ADD],
    {
      example: `${ctx.commandName} formation add ${args.join(' ')} --container game-server ${flag.name} ${value}`,
    },
  );
}

function givenTwice(ctx: Context, flag: FlagUse, container: string): Outcome {
  return ctx.fail(
    `\`${flag.name}\` is given twice for container ${code(container)}; give it once per \`--container\`.`,
    [FORMATION_ADD],
  );
}

function keywordOf(token: Token): Keyword | undefined {
  if (token.quoted) return undefined;
  const word = token.value.toLowerCase();
  return KEYWORDS.find((k) => k === word);
}

// Promote's words, after refusing any flag (it takes none).
function simplePositionalTokens(
  ctx: Context,
  rest: readonly Token[],
): Token[] | Extract<Outcome, { ok: false }> {
  const split = splitFlags(ctx, 'promote', rest);
  return 'ok' in split ? split : split.positionals;
}
