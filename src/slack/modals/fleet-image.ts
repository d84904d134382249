/**
 * The image modals of Armadas and ArmadaSets: which one (choosing reloads its
 * containers), which container, and the build as `image:tag` from that
 * container's branch, newest first, the image it runs now leading.
 */

import type { ImageArmadaInput, ImageArmadaSetInput } from '../../changes/requests/fleets.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock } from './blocks.js';
import { imageChoices, imageRefByName } from './choices.js';
import { needEnvironment } from './environment.js';
import { addError, errorBlock, missingChoice } from './field-errors.js';
import { FLEET_BLOCK, fleetChoices, fleetPicked } from './fleet-choices.js';
import { splitImageRef } from './parse-text.js';
import { readBlock, readChoice, TYPED_SUFFIX } from './state.js';
import type { ModalDefinition } from './types.js';
import { whereBlockFor } from './where.js';

/** Block ids of the image modals. */
export const FLEET_IMAGE_BLOCKS = { fleet: FLEET_BLOCK, container: 'container', image: 'image' } as const;

const B = FLEET_IMAGE_BLOCKS;
const IMAGE_HINT = 'image:tag (e.g. game-server:1.2.0)';

/** The image modal of `kind`: an armada's or an ArmadaSet's (the same fields). */
export function fleetImageModal(kind: 'Armada'): ModalDefinition<ImageArmadaInput>;
export function fleetImageModal(kind: 'ArmadaSet'): ModalDefinition<ImageArmadaSetInput>;
export function fleetImageModal(
  kind: 'Armada' | 'ArmadaSet',
): ModalDefinition<ImageArmadaInput | ImageArmadaSetInput> {
  const isSet = kind === 'ArmadaSet';
  const noun = isSet ? 'ArmadaSet' : 'armada';
  return {
    submit: 'Preview',
    fallbackBlock: B.image,

    async build(meta, deps, values) {
      const env = needEnvironment(meta);
      const { fleets, fleet } = await fleetPicked(deps.queries, kind, env, meta, values);
      const containers = fleet?.containers ?? [];
      const containerName =
        readChoice(values, B.container) ?? (containers.length === 1 ? containers[0]?.name : undefined);
      const container = containers.find((c) => c.name === containerName);
      const images = container?.branch ? await deps.queries.images(container.branch) : [];
      const running = imageRefByName(images, container?.image);
      return [
        contextBlock(
          `Rolls ${isSet ? 'an ArmadaSet' : 'an armada'} in *${escapeMrkdwn(truncate(env, 200))}* out to another build${isSet ? ', in every region' : ''}; the thread follows the rollout. You see a preview before anything changes.`,
        ),
        ...choiceBlocks({
          blockId: B.fleet,
          label: isSet ? 'ArmadaSet' : 'Armada',
          choices: fleetChoices(fleets),
          noun: `${noun}s in ${env}`,
          typeHint: `the ${noun} name and press Enter`,
          initial: fleet?.name,
          reload: true,
          suggest: { source: isSet ? 'armadasets' : 'armadas', scope: env },
        }),
        ...choiceBlocks({
          blockId: B.container,
          label: 'Container',
          choices: containers.map((c) => ({
            label: `${c.name}${c.branch ? ` (branch ${c.branch})` : ''}`,
            value: c.name,
          })),
          noun: 'containers',
          typeHint: 'a container name and press Enter',
          initial: container?.name,
          resetKey: fleet?.name ?? '',
          reload: true,
        }),
        ...choiceBlocks({
          blockId: B.image,
          label: 'Image',
          choices: imageChoices(images, running?.split(':')[0]),
          noun: container?.branch ? `images in ${container.branch}` : 'images',
          typeHint: IMAGE_HINT,
          initial: readChoice(values, B.image),
          typedInitial: readBlock(values, `${B.image}${TYPED_SUFFIX}`),
          resetKey: `${fleet?.name ?? ''}/${container?.name ?? ''}`,
          hint: running ? `Runs ${running} now. Newest tags first.` : 'Newest tags first.',
        }),
      ];
    },

    read(meta, values) {
      const errors: Record<string, string> = {};
      const name = readChoice(values, B.fleet);
      if (!name) addError(errors, errorBlock(B.fleet, values), `Choose the ${noun}.`);
      const container = readChoice(values, B.container);
      const ref = readChoice(values, B.image);
      const image = ref ? splitImageRef(ref) : undefined;
      if (!ref)
        addError(errors, errorBlock(B.image, values), missingChoice(values, B.image, 'an image', IMAGE_HINT));
      else if (!image) addError(errors, errorBlock(B.image, values), `Write the image as ${IMAGE_HINT}.`);
      const where = { environment: meta.environment ?? '', ...(container ? { container } : {}) };
      if (!name || !image) return { ok: false, errors, partial: { ...where, name, ...image } };
      // An environment the form lost reads as empty: the operation's schema names it missing.
      const input = { ...where, name, ...image };
      return { ok: true, input };
    },

    blockFor(field, values) {
      if (field === 'name') return B.fleet;
      if (field === 'container') return B.container;
      if (field === 'image' || field === 'tag') return B.image;
      return whereBlockFor(field, values);
    },
  };
}
