/**
 * `armadas <env>`, `armada <sub-command> ...` and `armadaset <sub-command> ...`:
 * the reads of Armadas and ArmadaSets, their scales and image rollouts. Names are checked by the platform's
 * rule here (names.ts); whether they exist is the query's business.
 */

import { ARMADA_IMAGE } from '../../changes/operations/armada.image/id.js';
import { ARMADA_SCALE } from '../../changes/operations/armada.scale/id.js';
import { ARMADASET_IMAGE } from '../../changes/operations/armadaset.image/id.js';
import { ARMADASET_SCALE } from '../../changes/operations/armadaset.scale/id.js';
import { CHANGE_ROLLBACK } from '../../changes/operations/change.rollback/id.js';
import { GAMESERVER_TERMINATE } from '../../changes/operations/gameserver.terminate/id.js';
import { countRangeText, isReplicaCount } from '../../changes/requests/fleets.js';
import type { OperationInput } from '../../changes/requests/index.js';
import { type Context, code, type Outcome } from './context.js';
import { flagPositionals, type SplitFlags, splitFlags } from './flags.js';
import { argumentNameProblem } from './names.js';
import { simplePositionals } from './parse-reads.js';
import type { Token } from './tokenize.js';

/** `armadas <env>`. */
export function parseArmadas(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'armadas', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'armadas', environment: args[0] as string });
}

/** `gameserver terminate <site> <game-server>`, or the form when nothing is named. */
export function parseGameServer(ctx: Context, rest: readonly Token[]): Outcome {
  return ctx.subCommand('gameserver', rest, {
    terminate: (words) => {
      // Nothing named: the form asks for the Site and the game server.
      if (words.length === 0) return ctx.ok({ kind: 'modal', modal: GAMESERVER_TERMINATE });
      const args = simplePositionals(ctx, GAMESERVER_TERMINATE, words);
      if (!Array.isArray(args)) return args;
      const [site, name] = args as [string, string];
      return ctx.ok({ kind: 'change', operation: GAMESERVER_TERMINATE, input: { site, name } });
    },
  });
}

/** `rollback <change-id>`: the rollback of one applied change. */
export function parseRollback(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, CHANGE_ROLLBACK, rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'change', operation: CHANGE_ROLLBACK, input: { changeIds: [args[0] as string] } });
}

/** `armada show <env> <armada>`. */
export function parseArmada(ctx: Context, rest: readonly Token[]): Outcome {
  return ctx.subCommand('armada', rest, {
    show: (words) => {
      const args = simplePositionals(ctx, 'armada.show', words);
      if (!Array.isArray(args)) return args;
      const [environment, armada] = args as [string, string];
      return ctx.ok({ kind: 'armada.show', environment, armada });
    },
    scale: (words) => parseScale(ctx, ARMADA_SCALE, words),
    image: (words) => parseImage(ctx, ARMADA_IMAGE, words),
  });
}

/** `armadaset show <env> <armadaset>`. */
export function parseArmadaSet(ctx: Context, rest: readonly Token[]): Outcome {
  return ctx.subCommand('armadaset', rest, {
    show: (words) => {
      const args = simplePositionals(ctx, 'armadaset.show', words);
      if (!Array.isArray(args)) return args;
      const [environment, armadaSet] = args as [string, string];
      return ctx.ok({ kind: 'armadaset.show', environment, armadaSet });
    },
    scale: (words) => parseScale(ctx, ARMADASET_SCALE, words),
    image: (words) => parseImage(ctx, ARMADASET_IMAGE, words),
  });
}

const SCALE_FLAGS: Record<string, 'minReplicas' | 'maxReplicas' | 'bufferSize'> = {
  '--min': 'minReplicas',
  '--max': 'maxReplicas',
  '--buffer': 'bufferSize',
};

/**
 * `armada scale <env> <armada> [--type t] [--min n] [--max n] [--buffer n]`
 * and the ArmadaSet form with `--region` (required). Counts must be whole
 * numbers here; the replica rules are the engine's, which names the rule.
 */
function parseScale(
  ctx: Context,
  id: typeof ARMADA_SCALE | typeof ARMADASET_SCALE,
  words: readonly Token[],
): Outcome {
  const split = splitFlags(ctx, id, words);
  if ('ok' in split) return split;
  const form = formOpened(ctx, id, split);
  if (form) return form;
  const args = flagPositionals(ctx, id, split);
  if (!Array.isArray(args)) return args;
  const [environment, name] = args as [string, string];
  const input: OperationInput<typeof ARMADA_SCALE> = { environment, name };
  let region: string | undefined;
  const seen = new Set<string>();
  for (const flag of split.flags) {
    if (seen.has(flag.name)) return ctx.fail(`\`${flag.name}\` is given twice; give it once.`, [id]);
    seen.add(flag.name);
    const value = flag.value ?? '';
    const field = SCALE_FLAGS[flag.name];
    if (field) {
      if (!/^\d{1,12}$/.test(value) || !isReplicaCount(Number(value))) {
        return ctx.fail(`\`${flag.name}\`: ${countRangeText(field)}, not ${code(value)}.`, [id]);
      }
      input[field] = Number(value);
      continue;
    }
    const placeholder = flag.name === '--region' ? '<region>' : '<type>';
    const problem = argumentNameProblem(placeholder, value);
    if (problem) return ctx.fail(`\`${flag.name}\` ${code(value)} is ${problem}.`, [id]);
    if (flag.name === '--region') region = value;
    else input.type = value;
  }
  if (id === ARMADASET_SCALE && region === undefined) {
    return ctx.fail('`armadaset scale` needs `--region <region>`: which region of the ArmadaSet.', [id]);
  }
  if (!Object.values(SCALE_FLAGS).some((f) => input[f] !== undefined)) {
    return ctx.fail(
      `\`${id.replace('.', ' ')}\` needs at least one of \`--min\`, \`--max\` and \`--buffer\`.`,
      [id],
    );
  }
  if (id === ARMADA_SCALE || region === undefined)
    return ctx.ok({ kind: 'change', operation: ARMADA_SCALE, input });
  return ctx.ok({ kind: 'change', operation: id, input: { ...input, region } });
}

/**
 * `armada image <env> <armada> <image>:<tag> [--container <name>]` and the
 * ArmadaSet form. Whether the image:tag exists in the container's branch is
 * the engine's business, which lists the tags there.
 */
function parseImage(
  ctx: Context,
  id: typeof ARMADA_IMAGE | typeof ARMADASET_IMAGE,
  words: readonly Token[],
): Outcome {
  const split = splitFlags(ctx, id, words);
  if ('ok' in split) return split;
  const form = formOpened(ctx, id, split);
  if (form) return form;
  const args = flagPositionals(ctx, id, split);
  if (!Array.isArray(args)) return args;
  const [environment, name, ref] = args as [string, string, string];
  const colon = ref.lastIndexOf(':');
  const image = colon < 0 ? ref : ref.slice(0, colon);
  const tag = colon < 0 ? '' : ref.slice(colon + 1);
  if (!image)
    return ctx.fail(`\`<image>:<tag>\` needs an image name before \`:\`, e.g. game-server:${tag}.`, [id]);
  if (!tag) return ctx.fail(`\`<image>:<tag>\` needs a tag, e.g. ${image}:1.2.0.`, [id]);
  const input: OperationInput<typeof ARMADA_IMAGE> = { environment, name, image, tag };
  for (const flag of split.flags) {
    if (input.container !== undefined)
      return ctx.fail(`\`${flag.name}\` is given twice; give it once.`, [id]);
    const value = flag.value ?? '';
    const problem = argumentNameProblem('<name>', value);
    if (problem) return ctx.fail(`\`${flag.name}\` ${code(value)} is ${problem}.`, [id]);
    input.container = value;
  }
  return ctx.ok({ kind: 'change', operation: id, input });
}

/**
 * `armada scale <env> [<armada>]` and the like with nothing to change yet
 * (no flags, at most the name): the form asks for the rest.
 */
function formOpened(
  ctx: Context,
  id: typeof ARMADA_SCALE | typeof ARMADASET_SCALE | typeof ARMADA_IMAGE | typeof ARMADASET_IMAGE,
  split: SplitFlags,
): Outcome | undefined {
  if (split.flags.length > 0 || split.positionals.length === 0 || split.positionals.length > 2)
    return undefined;
  const place = simplePositionals(ctx, `${id}.modal`, split.positionals);
  if (!Array.isArray(place)) return place;
  const [environment, fleet] = place as [string, string | undefined];
  return ctx.ok({ kind: 'modal', modal: id, environment, ...(fleet ? { fleet } : {}) });
}
