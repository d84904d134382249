/**
 * Roll an Armada (`armada.image`) or an ArmadaSet (`armadaset.image`) out to
 * another build: people name it `image:tag`, the template holds the internal
 * image name, resolved in the container's own branch. The write replaces that
 * one container's image, guarded by a `test` of the image the preview showed;
 * the follow-up watches the rollout until Synced, or Degraded with the reason.
 * An ImageUpdater targeting the fleet is warned about: its next image
 * overrides the one set by hand.
 */

import { type Armada, type ArmadaSet, armadaSetOwner } from '../../api-shapes/armada-resources.js';
import { UserError } from '../../errors/user-error.js';
import {
  ArmadaMovedError,
  ContainerNotInTemplateError,
  type FleetKind,
  type GameFabricClient,
} from '../../gamefabric/client.js';
import { WorldMovedError } from '../errors.js';
import { describeFleet, watchRollout } from '../fleet-follow.js';
import { readFleet } from '../fleet-read.js';
import { guardedWriteLines } from '../guarded-write-note.js';
import { imageChangeWarnings } from '../image-change.js';
import { imageTags, tagOf } from '../image-tags.js';
import type { OperationModule, Preview } from '../operation.js';
import { imageArmadaSchema, imageArmadaSetSchema, type SetFleetImageRequest } from '../requests/fleets.js';
import { parseRequest } from '../requests/vocabulary.js';
import { rolloutWords } from './rollout-words.js';
import type { ImageSet } from './set-fleet-image-restore.js';

type Fleet = Armada | ArmadaSet;
type Container = Fleet['spec']['template']['spec']['containers'][number];

/** The container to change: the one named, or the only one. */
function pickContainer(fleet: Fleet, where: string, wanted: string | undefined): Container {
  const containers = fleet.spec.template.spec.containers;
  const names = containers.map((c) => c.name);
  if (wanted === undefined) {
    const only = containers.length === 1 ? containers[0] : undefined;
    if (only) return only;
    throw new UserError(
      containers.length === 0
        ? `${where} has no containers.`
        : `${where} has ${containers.length} containers (${names.join(', ')}): say which with --container.`,
      'validation',
    );
  }
  const found = containers.find((c) => c.name === wanted);
  if (!found) {
    throw new UserError(
      `${where} has no container ${wanted} (its containers: ${names.join(', ') || 'none'}).`,
      'not_found',
    );
  }
  return found;
}

/** The internal name of `image:tag` in `branch`; a UserError listing the tags (or images) there when it is missing. */
async function internalName(
  client: GameFabricClient,
  branch: string,
  image: string,
  tag: string,
): Promise<string> {
  const all = await client.listImages(branch);
  const found = all.find((i) => i.spec.image === image && i.spec.tag === tag);
  if (found) return found.metadata.name;
  const tags = all.filter((i) => i.spec.image === image).map((i) => i.spec.tag);
  if (tags.length > 0) {
    throw new UserError(
      `Branch ${branch} has no ${image}:${tag}; it has ${tags.map((t) => `${image}:${t}`).join(', ')}. Promote ${tag} into ${branch} first (/harbor promote ${image}:${tag} from <branch> to ${branch}), or roll out ${tags.length === 1 ? 'that one' : 'one of those'}.`,
      'not_found',
    );
  }
  const images = [...new Set(all.map((i) => i.spec.image))];
  throw new UserError(
    `Branch ${branch} has no image ${image} (its images: ${images.join(', ') || 'none'}).`,
    'not_found',
  );
}

function imageOperation(kind: FleetKind): OperationModule<SetFleetImageRequest> {
  const isSet = kind === 'ArmadaSet';
  const noun = isSet ? 'ArmadaSet' : 'armada';

  return {
    parse: (input) => parseRequest(isSet ? imageArmadaSetSchema : imageArmadaSchema, input),

    target: (r) => ({ environment: r.environment, ...(isSet ? { armadaSet: r.name } : { armada: r.name }) }),

    async plan(ctx, r): Promise<Preview> {
      const fleet = await readFleet(ctx.client, kind, r.environment, r.name);
      const where = `${noun} ${r.name}`;
      const owner = isSet ? undefined : armadaSetOwner(fleet as Armada);
      if (owner) {
        throw new UserError(
          `Armada ${r.name} is owned by ArmadaSet ${owner}, whose template puts its image back: roll out the ArmadaSet instead (armadaset image ${r.environment} ${owner} ${r.image}:${r.tag}).`,
          'refused',
        );
      }
      const container = pickContainer(fleet, where, r.container);
      if (!container.branch) {
        throw new UserError(
          `Container ${container.name} of ${where} names no branch, so ${r.image}:${r.tag} cannot be looked up.`,
          'validation',
        );
      }
      const next = await internalName(ctx.client, container.branch, r.image, r.tag);
      const tags = await imageTags(ctx.client, [container]);
      const before = tagOf(tags, container.image);
      if (container.image === next) {
        throw new UserError(
          `Container ${container.name} of ${where} already runs ${r.image}:${r.tag}; nothing to change.`,
          'noop',
        );
      }
      const rollout = await rolloutWords(ctx.client, kind, r.environment, fleet, where);
      const warnings = [
        ...imageChangeWarnings(before, `${r.image}:${r.tag}`, `Container ${container.name} of ${where}`),
        ...rollout.warnings,
      ];
      return {
        summary: `Roll out ${where} (${r.environment}), container ${container.name}: ${before} → ${r.image}:${r.tag}`,
        lines: [
          { label: isSet ? 'ArmadaSet' : 'Armada', value: `${r.name} (${r.environment})` },
          { label: 'Container', value: `${container.name} (branch ${container.branch})` },
          { label: 'Image', value: `${before} → ${r.image}:${r.tag}` },
          { label: 'Internal name', value: `${container.image ?? 'none'} → ${next}`, secondary: true },
          ...rollout.lines,
          { label: 'Now', value: describeFleet(fleet) },
        ],
        notes: rollout.notes,
        destructive: false,
        ...(warnings.length > 0 ? { warnings } : {}),
        facts: {
          container: container.name,
          before: container.image ?? null,
          next,
          label: `${r.image}:${r.tag}`,
          beforeLabel: before,
        },
      };
    },

    async apply(ctx, { request: r, preview }) {
      const container = String(preview.facts.container);
      const before = (preview.facts.before as string | null) ?? undefined;
      const next = String(preview.facts.next);
      try {
        const written = await ctx.client.setTemplateImage(
          { kind, env: r.environment, name: r.name, container },
          before,
          next,
        );
        return {
          summary: `Set ${noun} ${r.name} (${r.environment}), container ${container}, to ${preview.facts.label}; the rollout is followed in this thread`,
          lines: guardedWriteLines(noun, written),
          // The message says Done only once the follow-up has seen the rollout (follow-outcome.ts).
          facts: { container, next, following: 'rollout' },
          undo: {
            fleet: kind,
            environment: r.environment,
            name: r.name,
            container,
            before: before ?? null,
            after: next,
            beforeLabel: String(preview.facts.beforeLabel ?? before ?? 'none'),
            afterLabel: String(preview.facts.label),
          } satisfies ImageSet,
        };
      } catch (err) {
        if (err instanceof ArmadaMovedError) {
          throw new WorldMovedError(
            `The image of container ${container} of ${r.name} changed since the preview (was ${err.expected}, now ${err.actual}); nothing was changed.`,
          );
        }
        if (err instanceof ContainerNotInTemplateError) {
          throw new WorldMovedError(`${err.message} any more; nothing was changed.`);
        }
        throw err;
      }
    },

    async verify(ctx, { request: r, preview }) {
      const fleet = await readFleet(ctx.client, kind, r.environment, r.name, true);
      const c = fleet.spec.template.spec.containers.find((x) => x.name === preview.facts.container);
      return c?.image === preview.facts.next ? 'applied' : 'not_applied';
    },

    follow(ctx, { request: r, preview }) {
      return watchRollout(
        ctx,
        kind,
        r.environment,
        r.name,
        String(preview.facts.label),
        String(preview.facts.next),
      );
    },
  };
}

export const imageArmada = imageOperation('Armada');
export const imageArmadaSet = imageOperation('ArmadaSet');
