/** Create a Region with one or more Region Types, each with its scheduling strategy. */

import { isNotFound } from '../../../gamefabric/errors.js';
import { NameTakenError } from '../../errors.js';
import type { OperationModule } from '../../operation.js';
import { type CreateRegionRequest, createRegionSchema } from '../../requests/regions.js';
import { parseRequest } from '../../requests/vocabulary.js';

export const createRegion: OperationModule<CreateRegionRequest> = {
  parse: (input) => parseRequest(createRegionSchema, input),

  target: (r) => ({ environment: r.environment, region: r.name }),

  async plan(ctx, r) {
    try {
      await ctx.client.getRegion(r.environment, r.name);
      throw new NameTakenError('name', `A region named ${r.name} already exists in ${r.environment}.`);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return {
      summary: `Create region ${r.name} in ${r.environment}`,
      lines: [
        { label: 'Environment', value: r.environment },
        { label: 'Region', value: r.displayName ? `${r.name} (${r.displayName})` : r.name },
        ...r.types.map((t, i) => ({
          label: `Type ${i + 1}: ${t.name}`,
          value: `${t.scheduling}; locations ${t.locations.join(', ')}`,
        })),
      ],
      notes: r.types.length > 1 ? ['Type order is priority: the first type is tried first.'] : [],
      destructive: false,
      facts: {},
    };
  },

  async apply(ctx, { request: r }) {
    const region = await ctx.client.createRegion(r.environment, {
      metadata: { name: r.name, environment: r.environment },
      spec: {
        // The provider requires a displayName; the region's name stands in when none is given.
        displayName: r.displayName ?? r.name,
        ...(r.description ? { description: r.description } : {}),
        types: r.types.map((t) => ({
          name: t.name,
          locations: t.locations,
          template: { scheduling: t.scheduling },
        })),
      },
    });
    return {
      summary: `Created region ${region.metadata.name} in ${r.environment}`,
      lines: [],
      facts: { region: region.metadata.name },
    };
  },

  async verify(ctx, { request: r }) {
    try {
      await ctx.client.getRegion(r.environment, r.name);
      return 'applied';
    } catch (err) {
      if (isNotFound(err)) return 'not_applied';
      throw err;
    }
  },
};
