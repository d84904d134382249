/** The requests of region.create and region.scheduling. */
import type { z } from 'zod';
import { SCHEDULING_STRATEGIES } from '../../api-shapes/resources.js';
import {
  environmentName,
  firstDuplicate,
  name,
  oneOf,
  optionalText,
  record,
  regionName,
  requiredList,
  textList,
} from './vocabulary.js';

const regionTypeSchema = record({
  name: name('region type', 'baremetal'),
  locations: textList('["fra-1", "fra-2"]').superRefine((v, ctx) => {
    if (!v || v.length === 0)
      ctx.addIssue({ code: 'custom', message: 'expected at least one location, e.g. fra-1' });
  }),
  scheduling: oneOf(SCHEDULING_STRATEGIES, 'Packed'),
}).transform((t) => ({ ...t, locations: t.locations ?? [] }));

export const createRegionSchema = record({
  environment: environmentName(),
  name: regionName(),
  displayName: optionalText('a display name', 'EU Central', 100),
  description: optionalText('a description', 'Frankfurt bare metal'),
  types: requiredList(regionTypeSchema, {
    min: 1,
    example: '[{ name: baremetal, locations: [fra-1], scheduling: Packed }]',
  }),
}).superRefine((r, ctx) => {
  const dup = firstDuplicate(r.types.map((t) => t.name));
  if (dup) {
    ctx.addIssue({
      code: 'custom',
      path: ['types'],
      message: `region type names must be unique ("${dup}" appears twice)`,
    });
  }
});

export type CreateRegionRequest = z.output<typeof createRegionSchema>;

export const setRegionSchedulingSchema = record({
  environment: environmentName(),
  region: regionName(),
  type: name('region type', 'baremetal'),
  scheduling: oneOf(SCHEDULING_STRATEGIES),
});

export type SetRegionSchedulingRequest = z.output<typeof setRegionSchedulingSchema>;

/** What a command or a form gives for it (before the schema fills defaults). */
export type CreateRegionInput = z.input<typeof createRegionSchema>;
export type SetRegionSchedulingInput = z.input<typeof setRegionSchedulingSchema>;
