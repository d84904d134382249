/** Create a Region with one or more Region Types, each with its scheduling strategy. */

import { isNotFound } from '../../gamefabric/errors.js';
import type { SchedulingStrategy } from '../../gamefabric/resources.js';
import { NameTakenError } from '../errors.js';
import type { OperationModule } from '../operation.js';
import { type Fields, fieldsOf, firstDuplicate } from '../validate.js';

interface RegionTypeRequest {
  name: string;
  locations: string[];
  scheduling: SchedulingStrategy;
}

interface CreateRegionRequest {
  environment: string;
  name: string;
  displayName?: string;
  description?: string;
  types: RegionTypeRequest[];
}

function readType(f: Fields): RegionTypeRequest | undefined {
  const t = {
    name: f.name('name', 'region type', 'baremetal'),
    locations: f.stringList('locations', '["fra-1", "fra-2"]') ?? [],
    scheduling: f.oneOf('scheduling', ['Packed', 'Distributed'] as const, 'Packed'),
  };
  if (t.locations.length === 0) f.problem('locations', 'expected at least one location, e.g. fra-1');
  return t.name && t.scheduling ? (t as RegionTypeRequest) : undefined;
}

export const createRegion: OperationModule<CreateRegionRequest> = {
  id: 'region.create',

  parse(input) {
    const f = fieldsOf(input);
    const request = {
      environment: f.environmentName('environment'),
      name: f.regionName('name'),
      displayName: f.optionalString('displayName', 'a display name', 'EU Central', 100),
      description: f.optionalString('description', 'a description', 'Frankfurt bare metal'),
      types: f.list('types', readType, {
        min: 1,
        example: '[{ name: baremetal, locations: [fra-1], scheduling: Packed }]',
      }),
    };
    const dup = firstDuplicate(request.types.map((t) => t.name));
    if (dup) f.problem('types', `region type names must be unique ("${dup}" appears twice)`);
    f.done();
    return request as CreateRegionRequest;
  },

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
        { label: 'Region', value: `${r.name} (${r.displayName ?? r.name})` },
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
