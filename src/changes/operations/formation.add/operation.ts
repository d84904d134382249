/**
 * Add a Vessel to a Formation (seed rule 1: by patching the Formation, never
 * by creating an owned Vessel), optionally overriding container images/args.
 */

import type {
  Container,
  ContainerOverride,
  Formation,
  FormationVessel,
} from '../../../api-shapes/resources.js';
import { UserError } from '../../../errors/user-error.js';
import { DuplicateVesselError, isNotFound } from '../../../gamefabric/errors.js';
import { argsText } from '../../args-text.js';
import { NameTakenError, WorldMovedError } from '../../errors.js';
import { untilScheduled, watchVessel } from '../../follow.js';
import { imageTags, tagOf } from '../../image-tags.js';
import { quote } from '../../not-found.js';
import type { Line, OperationModule } from '../../operation.js';
import {
  type AddToFormationRequest,
  addToFormationSchema,
  type OverrideRequest,
} from '../../requests/formations.js';
import { parseRequest } from '../../requests/vocabulary.js';
import type { AddedEntry } from '../formation.remove/restore.js';
import { formationVesselList, readFormation } from '../formation-read.js';
import { type ExpectedOverride, overrideOutcome } from '../override-check.js';
import { imageLabel, resolveImage } from '../resolve-image.js';

export const addToFormation: OperationModule<AddToFormationRequest> = {
  parse: (input) => parseRequest(addToFormationSchema, input),

  target: (r) => ({ environment: r.environment, formation: r.formation, vessel: r.vessel, region: r.region }),

  async plan(ctx, r) {
    const formation = await readFormation(ctx.client, r.environment, r.formation);
    if (formation.spec.vessels.some((v) => v.name === r.vessel)) {
      throw new NameTakenError(
        'vessel',
        `Formation ${r.formation} already has a vessel named ${r.vessel}; pick another name.`,
      );
    }
    await ctx.client.getRegion(r.environment, r.region).catch((err) => {
      if (isNotFound(err))
        throw new UserError(`region: no region ${r.region} in environment ${r.environment}`, 'not_found');
      throw err;
    });
    const { entry, expected, overrideLines } = await buildEntry(ctx.client, formation, r);
    return {
      summary: `Add vessel ${r.vessel} (region ${r.region}) to formation ${r.formation} in ${r.environment}`,
      lines: [
        { label: 'Formation', value: `${r.formation} (${r.environment})` },
        {
          label: 'New vessel',
          value: `${r.vessel} in ${r.region}, at index ${formation.spec.vessels.length}`,
        },
        ...overrideLines,
      ],
      notes: [
        overrideLines.length
          ? 'Once the vessel exists, the bot reads it back and says whether it runs these overrides.'
          : 'No overrides: the vessel inherits the formation template as is.',
        ...(r.overrides.some((o) => o.image)
          ? [
              "The platform's own override type has args, command, env, config files and secrets, but no image: the real controller may not honour an image override (the read-back says).",
            ]
          : []),
      ],
      lists: [{ title: 'Current vessels', items: formationVesselList(formation) }],
      destructive: false,
      facts: { entry, expected },
    };
  },

  async apply(ctx, { request: r, preview }) {
    const entry = preview.facts.entry as FormationVessel;
    try {
      const { index } = await ctx.client.appendVesselToFormation(r.environment, r.formation, entry);
      return {
        summary: `Added vessel ${r.vessel} to formation ${r.formation} at index ${index}`,
        lines: [],
        facts: { index, vessel: { environment: r.environment, name: r.vessel } },
        undo: { environment: r.environment, formation: r.formation, vessel: entry } satisfies AddedEntry,
      };
    } catch (err) {
      if (err instanceof DuplicateVesselError) {
        throw new WorldMovedError(
          `Someone added a vessel named ${r.vessel} to ${r.formation} since the preview; nothing was changed.`,
        );
      }
      if (isNotFound(err))
        throw new WorldMovedError(`Formation ${r.formation} no longer exists; nothing was changed.`);
      throw err;
    }
  },

  async verify(ctx, { request: r }) {
    const formation = await ctx.client.getFormation(r.environment, r.formation);
    return formation.spec.vessels.some((v) => v.name === r.vessel) ? 'applied' : 'not_applied';
  },

  follow: (ctx, { request: r, preview }) => {
    const expected = (preview.facts.expected ?? []) as ExpectedOverride[];
    return watchVessel(ctx, r.environment, r.vessel, untilScheduled, (vessel) =>
      overrideOutcome(vessel, expected),
    );
  },
};

/** One requested override, placed at its container's position in the template. */
interface Placed {
  at: number;
  request: OverrideRequest;
  field: string;
}

/**
 * The `spec.vessels` entry and what it should make the Vessel run. Override
 * entries go in template container order, one per container up to the last
 * overridden one (a bare `{ name }` keeps a container as it is): the docs'
 * example matches entries by name, the provider's type (no name) by
 * position, and this shape means the same under both.
 */
async function buildEntry(
  client: Parameters<typeof resolveImage>[0],
  formation: Formation,
  r: AddToFormationRequest,
): Promise<{ entry: FormationVessel; expected: ExpectedOverride[]; overrideLines: Line[] }> {
  const template = formation.spec.template?.spec.containers ?? [];
  const placed: Placed[] = r.overrides.map((o, i) => {
    const at = template.findIndex((c) => c.name === o.container);
    if (at === -1) {
      const known = template.map((c) => c.name).join(', ') || 'none';
      throw new UserError(
        `overrides[${i}].container: formation ${r.formation} has no container ${o.container} (its containers: ${known})`,
      );
    }
    return { at, request: o, field: `overrides[${i}]` };
  });
  placed.sort((a, b) => a.at - b.at);
  const containers: ContainerOverride[] = template
    .slice(0, (placed.at(-1)?.at ?? -1) + 1)
    .map((c) => ({ name: c.name }));
  const expected: ExpectedOverride[] = [];
  const overrideLines: Line[] = [];
  for (const { at, request: o, field } of placed) {
    const base = template[at] as Container;
    const override = containers[at] as ContainerOverride;
    const wanted: ExpectedOverride = { index: at, container: o.container };
    const parts: string[] = [];
    if (o.image) {
      const image = await resolveImage(client, base.branch ?? '', o.image, `${field}.image`);
      override.image = image.metadata.name;
      wanted.image = { name: image.metadata.name, label: imageLabel(image) };
      const was = base.image ? tagOf(await imageTags(client, [base]), base.image) : 'the template image';
      parts.push(`image ${imageLabel(image)} instead of ${was}`);
    }
    if (o.args) {
      override.args = o.args;
      wanted.args = o.args;
      parts.push(`args ${o.args.length ? quote(argsText(o.args)) : '(none)'}`);
    }
    if (o.command) {
      override.command = o.command;
      wanted.command = o.command;
      parts.push(`command ${o.command.length ? quote(argsText(o.command)) : '(none)'}`);
    }
    if (o.env) {
      override.env = o.env;
      wanted.env = o.env;
      parts.push(`env ${o.env.map((e) => `${e.name}=${e.value}`).join(' ')}`);
    }
    expected.push(wanted);
    overrideLines.push({ label: `Override ${o.container}`, value: parts.join('; ') });
  }
  const entry: FormationVessel = {
    name: r.vessel,
    region: r.region,
    ...(containers.length ? { override: { containers } } : {}),
  };
  return { entry, expected, overrideLines };
}
