/**
 * One zod schema per change operation, and the types the compiler links
 * through them: a command or a form produces `OperationInput<K>` (what the
 * schema reads), the operation works on `OperationRequest<K>` (what it
 * returns). The engine validates every input with the schema again, since it
 * also arrives from release buttons, stored metadata and the store.
 */
import type { z } from 'zod';
import type { ChangeOperation } from '../../policy/operations.js';
import {
  imageArmadaSchema,
  imageArmadaSetSchema,
  scaleArmadaSchema,
  scaleArmadaSetSchema,
} from './fleets.js';
import { addToFormationSchema, removeFromFormationSchema } from './formations.js';
import { promoteImageSchema } from './images.js';
import { createRegionSchema, setRegionSchedulingSchema } from './regions.js';
import { rollbackSchema } from './rollback.js';
import { createVesselSchema, deleteVesselSchema } from './vessels.js';

export const REQUEST_SCHEMAS = {
  'image.promote': promoteImageSchema,
  'vessel.create': createVesselSchema,
  'vessel.delete': deleteVesselSchema,
  'formation.add': addToFormationSchema,
  'formation.remove': removeFromFormationSchema,
  'region.create': createRegionSchema,
  'region.scheduling': setRegionSchedulingSchema,
  'armada.scale': scaleArmadaSchema,
  'armadaset.scale': scaleArmadaSetSchema,
  'armada.image': imageArmadaSchema,
  'armadaset.image': imageArmadaSetSchema,
  'change.rollback': rollbackSchema,
} satisfies Record<ChangeOperation, z.ZodType>;

type Schemas = typeof REQUEST_SCHEMAS;

/** What a command or a form hands the engine for operation `K`. */
export type OperationInput<K extends ChangeOperation> = z.input<Schemas[K]>;

/** The validated request operation `K` works on. */
export type OperationRequest<K extends ChangeOperation> = z.output<Schemas[K]>;

/** An operation with its input, as one value: the compiler checks the input against that operation's schema. */
export type ChangeInput = {
  [K in ChangeOperation]: { operation: K; input: OperationInput<K> };
}[ChangeOperation];
