/**
 * The add-to-formation modal: vessel name, region, and per container of the
 * formation's template an image choice ("keep template image" first) and
 * optional args. Only containers the user changed become overrides.
 *
 * The container name is part of each override block id, so a submission can
 * be read without the template; the args block (never split into a typed
 * fallback) is the one that lists the containers.
 */

import type { InputBlock, KnownBlock } from '@slack/types';
import { nameRule } from '../../api-shapes/names.js';
import type { ContainerPick, ImagePick } from '../../changes/form-pickers.js';
import type { FormQueries } from '../../changes/form-queries.js';
import type { AddToFormationInput } from '../../changes/requests/formations.js';
import { escapeMrkdwn, LIMITS, truncate } from '../limits.js';
import { choiceBlocks, contextBlock, textInput } from './blocks.js';
import { freeName, imageChoices, imageRefByName, onlyChoice, regionChoices } from './choices.js';
import { needEnvironment, needFormation } from './environment.js';
import { addError } from './field-errors.js';
import { splitArgs } from './parse-text.js';
import { blockIds, readBlock, readChoice, readRaw, TYPED_SUFFIX, textInitial } from './state.js';
import type { ModalDefinition, ViewStateValues } from './types.js';

/** Fixed block ids of the add-to-formation modal (override blocks: see overrideBlock). */
export const FORMATION_BLOCKS = { vessel: 'vessel', region: 'region' } as const;

/** Value of the "keep template image" option; image refs always contain a colon, so it cannot clash. */
export const KEEP_TEMPLATE = 'keep-template';

const B = FORMATION_BLOCKS;
const ARGS_BLOCK = /^override\.(\d+)\.args\.(.+)$/;
/** Slots kept free for the fixed blocks, the "not shown" note and every change form's When and Break glass fields. */
const FIXED_BLOCKS = 7;
/** Per container: image select, its typed fallback, args. */
const BLOCKS_PER_CONTAINER = 3;

/** The block id of container `index` (named `name`)'s image select or args input. */
export function overrideBlock(index: number, name: string, part: 'image' | 'args'): string {
  return `override.${index}.${part}.${name}`;
}

function fitsBlockId(index: number, name: string): boolean {
  return overrideBlock(index, name, 'image').length + TYPED_SUFFIX.length <= LIMITS.blockId;
}

interface ContainerChange {
  index: number;
  name: string;
  image?: string;
  argsText?: string;
}

/** The containers the submission lists, in modal order, with what the user set. */
function containersIn(values: ViewStateValues): ContainerChange[] {
  const found: ContainerChange[] = [];
  for (const id of blockIds(values)) {
    const m = ARGS_BLOCK.exec(id);
    if (!m) continue;
    const index = Number(m[1]);
    const name = m[2] ?? '';
    const image = readChoice(values, overrideBlock(index, name, 'image'));
    found.push({
      index,
      name,
      ...(image && image !== KEEP_TEMPLATE ? { image } : {}),
      ...(readBlock(values, id) ? { argsText: readRaw(values, id) } : {}),
    });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Containers the user changed, in the order their overrides appear in the request. */
function changedContainers(values: ViewStateValues): ContainerChange[] {
  return containersIn(values).filter((c) => c.image !== undefined || c.argsText !== undefined);
}

async function imagesByBranch(
  queries: FormQueries,
  containers: readonly ContainerPick[],
): Promise<Map<string, ImagePick[]>> {
  const branches = [...new Set(containers.map((c) => c.branch).filter((b): b is string => !!b))];
  const lists = await Promise.all(branches.map((b) => queries.images(b)));
  return new Map(branches.map((b, i) => [b, lists[i] ?? []]));
}

function containerBlocks(
  index: number,
  c: ContainerPick,
  images: readonly ImagePick[],
  values: ViewStateValues,
): InputBlock[] {
  const imageId = overrideBlock(index, c.name, 'image');
  const argsId = overrideBlock(index, c.name, 'args');
  const templateRef = imageRefByName(images, c.image) ?? c.image ?? 'none';
  const templateName = templateRef.split(':')[0];
  const templateArgs = c.args?.length ? truncate(c.args.join(' '), 300) : '(none)';
  return [
    ...choiceBlocks({
      blockId: imageId,
      label: `${c.name}: image`,
      choices: [
        { label: `keep template image (${templateRef})`, value: KEEP_TEMPLATE },
        ...imageChoices(images, templateName),
      ],
      noun: c.branch ? `images in ${c.branch}` : 'images',
      typeHint: 'image:tag (e.g. game-server:1.2.0)',
      initial: readBlock(values, imageId) ?? KEEP_TEMPLATE,
      typedInitial: readBlock(values, `${imageId}${TYPED_SUFFIX}`),
    }),
    textInput({
      blockId: argsId,
      label: `${c.name}: arguments`,
      optional: true,
      initial: textInitial(values, argsId),
      hint: `Template args: ${templateArgs}. Leave empty to keep them; text here replaces them.`,
    }),
  ];
}

export const formationAddModal: ModalDefinition<AddToFormationInput> = {
  submit: 'Preview',
  fallbackBlock: B.vessel,

  async build(meta, deps, values) {
    const env = needEnvironment(meta);
    const formationName = needFormation(meta);
    const [formation, regions, vessels] = await Promise.all([
      deps.queries.formation(env, formationName),
      deps.queries.regions(env),
      deps.queries.vesselsIn(env),
    ]);
    const taken = [...formation.vessels, ...(vessels ?? []).map((v) => v.name)];
    const template = formation.containers;
    const images = await imagesByBranch(deps.queries, template);
    const where = `formation *${escapeMrkdwn(truncate(formationName, 200))}* in *${escapeMrkdwn(truncate(env, 200))}*`;
    const out: KnownBlock[] = [
      contextBlock(
        template.length
          ? `Adds a vessel to ${where}. Its containers follow the formation template unless you change them below.`
          : `Adds a vessel to ${where}. The template has no containers to override.`,
      ),
      textInput({
        blockId: B.vessel,
        label: 'Vessel name',
        initial: textInitial(values, B.vessel),
        placeholder: freeName(truncate(formationName, 60), taken, formation.vessels.length + 1),
        hint: `${nameRule()} Unique in the formation.`,
      }),
      ...choiceBlocks({
        blockId: B.region,
        label: 'Region',
        choices: regionChoices(regions),
        noun: `regions in ${env}`,
        typeHint: 'a region name (e.g. eu-central)',
        initial: readChoice(values, B.region) ?? onlyChoice(regionChoices(regions)),
        typedInitial: readBlock(values, `${B.region}${TYPED_SUFFIX}`),
        // Another environment has other regions: a region picked in the old one is dropped.
        resetKey: env,
      }),
    ];
    const left: string[] = [];
    for (const [i, c] of template.entries()) {
      if (
        !c.name ||
        !fitsBlockId(i, c.name) ||
        out.length + BLOCKS_PER_CONTAINER > LIMITS.modalBlocks - FIXED_BLOCKS
      ) {
        left.push(c.name || '(unnamed)');
        continue;
      }
      out.push(...containerBlocks(i, c, images.get(c.branch ?? '') ?? [], values));
    }
    if (left.length) {
      out.push(
        contextBlock(
          `${left.length} more container(s) keep the template (this form has no room for them): ${escapeMrkdwn(truncate(left.join(', '), 1000))}.`,
        ),
      );
    }
    return out;
  },

  read(meta, values) {
    const errors: Record<string, string> = {};
    if (!meta.environment || !meta.formation) {
      addError(errors, B.vessel, 'This form lost its environment or formation; open it again.');
    }
    const vessel = readBlock(values, B.vessel);
    if (!vessel) addError(errors, B.vessel, 'Give the vessel a name, e.g. lobby-3.');
    const region = readChoice(values, B.region);
    if (!region) addError(errors, B.region, 'Choose a region.');
    const overrides: NonNullable<AddToFormationInput['overrides']> = [];
    for (const c of changedContainers(values)) {
      const args = c.argsText === undefined ? undefined : splitArgs(c.argsText);
      if (args && !args.ok) {
        addError(errors, overrideBlock(c.index, c.name, 'args'), args.error);
        continue;
      }
      overrides.push({
        container: c.name,
        ...(c.image ? { image: c.image } : {}),
        ...(args?.ok ? { args: args.value } : {}),
      });
    }
    // Anything missing is empty here and has its error above; the operation's schema also names it.
    const input: AddToFormationInput = {
      environment: meta.environment ?? '',
      formation: meta.formation ?? '',
      vessel: vessel ?? '',
      region: region ?? '',
      overrides,
    };
    // What could be read goes along, so the operation's own checks report their problems in the same answer.
    if (Object.keys(errors).length > 0) return { ok: false, errors, partial: input };
    return { ok: true, input };
  },

  blockFor(field, values) {
    if (field === 'vessel' || field === 'region') return field;
    const m = /^overrides\[(\d+)\]\.?([a-z]*)/i.exec(field);
    if (!m || !values) return undefined;
    const c = changedContainers(values)[Number(m[1])];
    if (!c) return undefined;
    return overrideBlock(c.index, c.name, m[2] === 'args' ? 'args' : 'image');
  },
};
