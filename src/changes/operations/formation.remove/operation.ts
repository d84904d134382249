/**
 * Remove a Vessel from a Formation by name. The client's guarded patch (`test`
 * the name at the index, then `remove`) re-reads on a conflict, so a Formation
 * changed underneath never loses the wrong Vessel.
 */

import type { Formation } from '../../../api-shapes/resources.js';
import { UserError } from '../../../errors/user-error.js';
import { rereads } from '../../../format/english.js';
import { VesselNotInFormationError } from '../../../gamefabric/errors.js';
import { WorldMovedError } from '../../errors.js';
import { untilGone, watchVessel } from '../../follow.js';
import type { OperationModule } from '../../operation.js';
import { type RemoveFromFormationRequest, removeFromFormationSchema } from '../../requests/formations.js';
import { parseRequest } from '../../requests/vocabulary.js';
import { formationVesselShutdownText } from '../../vessel-shutdown.js';
import type { RemovedEntry } from '../formation.add/restore.js';
import { formationVesselList, readFormation } from '../formation-read.js';

export const removeFromFormation: OperationModule<RemoveFromFormationRequest> = {
  parse: (input) => parseRequest(removeFromFormationSchema, input),

  target: (r) => ({ environment: r.environment, formation: r.formation, vessel: r.vessel }),

  async plan(ctx, r) {
    const formation = await readFormation(ctx.client, r.environment, r.formation);
    const index = formation.spec.vessels.findIndex((v) => v.name === r.vessel);
    if (index < 0) {
      const names = formation.spec.vessels.map((v) => v.name).join(', ') || 'none';
      throw new UserError(
        `Formation ${r.formation} has no vessel ${r.vessel} (its vessels: ${names}).`,
        'not_found',
      );
    }
    return {
      summary: `Remove vessel ${r.vessel} from formation ${r.formation} in ${r.environment}`,
      lines: [
        { label: 'Formation', value: `${r.formation} (${r.environment})` },
        { label: 'Vessel', value: `${r.vessel}, now at index ${index}` },
      ],
      notes: [formationVesselShutdownText(r.vessel)],
      lists: [{ title: 'Current vessels', items: formationVesselList(formation) }],
      destructive: true,
      warnings: lastVesselWarnings(formation, r.vessel),
      facts: { index },
    };
  },

  async apply(ctx, { request: r }) {
    try {
      const { removedIndex, removed, attempts } = await ctx.client.removeVesselFromFormation(
        r.environment,
        r.formation,
        r.vessel,
      );
      return {
        summary: `Removed vessel ${r.vessel} from formation ${r.formation} in ${r.environment} (was at index ${removedIndex})`,
        lines:
          attempts > 1
            ? [
                {
                  label: 'Note',
                  value: `the formation changed meanwhile; re-read it ${rereads(attempts - 1)}`,
                },
              ]
            : [],
        facts: { removedIndex, vessel: { environment: r.environment, name: r.vessel } },
        undo: {
          environment: r.environment,
          formation: r.formation,
          vessel: removed,
          index: removedIndex,
        } satisfies RemovedEntry,
      };
    } catch (err) {
      if (err instanceof VesselNotInFormationError) {
        throw new WorldMovedError(
          `Vessel ${r.vessel} is no longer in formation ${r.formation} (removed by someone else since the preview); nothing was changed.`,
        );
      }
      throw err;
    }
  },

  async verify(ctx, { request: r }) {
    const formation = await ctx.client.getFormation(r.environment, r.formation);
    return formation.spec.vessels.some((v) => v.name === r.vessel) ? 'not_applied' : 'applied';
  },

  follow: (ctx, { request: r }) => watchVessel(ctx, r.environment, r.vessel, untilGone(r.vessel)),
};

/**
 * Removing the only Vessel of a Formation (or the only one it has in a
 * region) takes every game server there down: the preview says so in words,
 * because "Remove vessel arena-1" alone does not.
 */
export function lastVesselWarnings(formation: Formation, vessel: string): string[] {
  const name = formation.metadata.name;
  const vessels = formation.spec.vessels;
  const removed = vessels.find((v) => v.name === vessel);
  if (!removed) return [];
  if (vessels.length === 1) {
    return [`${vessel} is the last vessel of formation ${name}: after this it runs no game servers at all.`];
  }
  const sameRegion = vessels.filter((v) => v.region === removed.region);
  if (sameRegion.length === 1) {
    return [
      `${vessel} is the last vessel of formation ${name} in region ${removed.region}: after this ${name} runs no game servers there.`,
    ];
  }
  return [];
}
