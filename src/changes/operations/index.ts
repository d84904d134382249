/**
 * The change operations' half of their descriptors, by operation id: the
 * request's zod schema and the module that plans and applies it. The rest of
 * each descriptor (words, help, form) is in src/operations/catalogue.ts; the
 * compiler checks this table has every change operation of it.
 */
import type { z } from 'zod';
import type { ChangeOperation } from '../../operations/index.js';
import type { OperationModule } from '../operation.js';
import {
  imageArmadaSchema,
  imageArmadaSetSchema,
  scaleArmadaSchema,
  scaleArmadaSetSchema,
} from '../requests/fleets.js';
import { addToFormationSchema, removeFromFormationSchema } from '../requests/formations.js';
import { terminateGameServerSchema } from '../requests/gameservers.js';
import { promoteImageSchema } from '../requests/images.js';
import { createRegionSchema, setRegionSchedulingSchema } from '../requests/regions.js';
import { rollbackSchema } from '../requests/rollback.js';
import { createVesselSchema, deleteVesselSchema } from '../requests/vessels.js';
import { rollbackChange } from './change.rollback/operation.js';
import { addToFormation } from './formation.add/operation.js';
import { removeFromFormation } from './formation.remove/operation.js';
import { terminateGameServer } from './gameserver.terminate/operation.js';
import { promoteImage } from './image.promote/operation.js';
import { createRegion } from './region.create/operation.js';
import { setRegionScheduling } from './region.scheduling/operation.js';
import { scaleArmada, scaleArmadaSet } from './scale-fleet.js';
import { imageArmada, imageArmadaSet } from './set-fleet-image.js';
import { createVessel } from './vessel.create/operation.js';
import { deleteVessel } from './vessel.delete/operation.js';

export const CHANGE_TABLE = {
  'image.promote': { schema: promoteImageSchema, module: promoteImage },
  'vessel.create': { schema: createVesselSchema, module: createVessel },
  'vessel.delete': { schema: deleteVesselSchema, module: deleteVessel },
  'formation.add': { schema: addToFormationSchema, module: addToFormation },
  'formation.remove': { schema: removeFromFormationSchema, module: removeFromFormation },
  'region.create': { schema: createRegionSchema, module: createRegion },
  'region.scheduling': { schema: setRegionSchedulingSchema, module: setRegionScheduling },
  'armada.scale': { schema: scaleArmadaSchema, module: scaleArmada },
  'armadaset.scale': { schema: scaleArmadaSetSchema, module: scaleArmadaSet },
  'armada.image': { schema: imageArmadaSchema, module: imageArmada },
  'armadaset.image': { schema: imageArmadaSetSchema, module: imageArmadaSet },
  'gameserver.terminate': { schema: terminateGameServerSchema, module: terminateGameServer },
  'change.rollback': { schema: rollbackSchema, module: rollbackChange },
} satisfies Record<ChangeOperation, { schema: z.ZodType; module: unknown }>;

type Table = typeof CHANGE_TABLE;

/** What a command or a form hands the engine for operation `K`. */
export type OperationInput<K extends ChangeOperation> = z.input<Table[K]['schema']>;

/** The validated request operation `K` works on. */
export type OperationRequest<K extends ChangeOperation> = z.output<Table[K]['schema']>;

/** The module for an operation id. */
export function operationModule(id: ChangeOperation): OperationModule<unknown> {
  // Each module is typed by its own request; the engine only passes it what its own parse() returned.
  return CHANGE_TABLE[id].module as unknown as OperationModule<unknown>;
}
