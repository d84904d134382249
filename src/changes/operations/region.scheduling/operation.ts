/**
 * Set a Region Type's scheduling strategy. Per the seed, only game servers
 * started afterwards are affected; the preview says so, because users expect
 * an immediate reshuffle otherwise.
 */

import { type Region, schedulingOf } from '../../../api-shapes/resources.js';
import { UserError } from '../../../errors/user-error.js';
import type { GameFabricClient } from '../../../gamefabric/client.js';
import { isNotFound, RegionTypeNotFoundError } from '../../../gamefabric/errors.js';
import { WorldMovedError } from '../../errors.js';
import { missingIn } from '../../not-found.js';
import type { OperationModule } from '../../operation.js';
import { type SetRegionSchedulingRequest, setRegionSchedulingSchema } from '../../requests/regions.js';
import { parseRequest } from '../../requests/vocabulary.js';
import { SCHEDULING_EFFECT, SCHEDULING_TAKES_EFFECT } from '../../scheduling-words.js';
import type { SchedulingSet } from './restore.js';

export const setRegionScheduling: OperationModule<SetRegionSchedulingRequest> = {
  parse: (input) => parseRequest(setRegionSchedulingSchema, input),

  target: (r) => ({ environment: r.environment, region: r.region }),

  async plan(ctx, r) {
    const previous = currentScheduling(await readRegion(ctx.client, r), r);
    if (previous === r.scheduling) {
      throw new UserError(
        `Region type ${r.type} of ${r.region} already uses ${r.scheduling} scheduling; nothing to change.`,
        'noop',
      );
    }
    return {
      summary: `Set scheduling of region type ${r.type} in ${r.region} (${r.environment}) from ${previous} to ${r.scheduling}`,
      lines: [
        { label: 'Region', value: `${r.region} (${r.environment})` },
        { label: 'Region type', value: r.type },
        { label: 'Scheduling', value: `${previous} → ${r.scheduling}` },
        { label: 'Effect', value: SCHEDULING_EFFECT[r.scheduling] },
      ],
      notes: [SCHEDULING_TAKES_EFFECT],
      destructive: false,
      facts: { previous },
    };
  },

  async apply(ctx, { request: r, preview }) {
    const now = currentScheduling(await readRegion(ctx.client, r, 'since the preview'), r);
    if (now !== preview.facts.previous) {
      throw new WorldMovedError(
        `Scheduling of ${r.region}/${r.type} changed since the preview (was ${String(preview.facts.previous)}, now ${now}); nothing was changed.`,
      );
    }
    try {
      const { previous } = await ctx.client.setRegionTypeScheduling(
        r.environment,
        r.region,
        r.type,
        r.scheduling,
      );
      return {
        summary: `Region type ${r.type} in ${r.region} (${r.environment}) now uses ${r.scheduling} scheduling (was ${previous})`,
        lines: [],
        facts: { previous },
        undo: {
          environment: r.environment,
          region: r.region,
          type: r.type,
          before: previous,
          after: r.scheduling,
        } satisfies SchedulingSet,
      };
    } catch (err) {
      if (err instanceof RegionTypeNotFoundError) {
        throw new WorldMovedError(`Region ${r.region} no longer has a type ${r.type}; nothing was changed.`);
      }
      throw err;
    }
  },

  async verify(ctx, { request: r }) {
    return currentScheduling(await readRegion(ctx.client, r), r) === r.scheduling ? 'applied' : 'not_applied';
  },
};

async function readRegion(
  client: GameFabricClient,
  r: SetRegionSchedulingRequest,
  when?: string,
): Promise<Region> {
  try {
    return await client.getRegion(r.environment, r.region);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if (when) throw new WorldMovedError(`Region ${r.region} no longer exists; nothing was changed.`);
    throw await missingIn('region', r.region, r.environment, async () =>
      (await client.listRegions(r.environment)).map((x) => x.metadata.name),
    );
  }
}

function currentScheduling(region: Region, r: SetRegionSchedulingRequest): string {
  const type = region.spec.types.find((t) => t.name === r.type);
  if (!type) {
    const names = region.spec.types.map((t) => t.name).join(', ');
    throw new UserError(`Region ${r.region} has no type ${r.type} (its types: ${names}).`, 'not_found');
  }
  return schedulingOf(type);
}
