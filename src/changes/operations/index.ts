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
import { ARMADA_IMAGE } from './armada.image/id.js';
import { ARMADA_SCALE } from './armada.scale/id.js';
import { ARMADASET_IMAGE } from './armadaset.image/id.js';
import { ARMADASET_SCALE } from './armadaset.scale/id.js';
import { CHANGE_ROLLBACK } from './change.rollback/id.js';
import { rollbackChange } from './change.rollback/operation.js';
import { FORMATION_ADD } from './formation.add/id.js';
import { addToFormation } from './formation.add/operation.js';
import { FORMATION_REMOVE } from './formation.remove/id.js';
import { removeFromFormation } from './formation.remove/operation.js';
import { GAMESERVER_TERMINATE } from './gameserver.terminate/id.js';
import { terminateGameServer } from './gameserver.terminate/operation.js';
import { IMAGE_PROMOTE } from './image.promote/id.js';
import { promoteImage } from './image.promote/operation.js';
import { REGION_CREATE } from './region.create/id.js';
import { createRegion } from './region.create/operation.js';
import { REGION_SCHEDULING } from './region.scheduling/id.js';
import { setRegionScheduling } from './region.scheduling/operation.js';
import { scaleArmada, scaleArmadaSet } from './scale-fleet.js';
import { imageArmada, imageArmadaSet } from './set-fleet-image.js';
import { VESSEL_CREATE } from './vessel.create/id.js';
import { createVessel } from './vessel.create/operation.js';
import { VESSEL_DELETE } from './vessel.delete/id.js';
import { deleteVessel } from './vessel.delete/operation.js';

export const CHANGE_TABLE = {
  [IMAGE_PROMOTE]: { schema: promoteImageSchema, module: promoteImage },
  [VESSEL_CREATE]: { schema: createVesselSchema, module: createVessel },
  [VESSEL_DELETE]: { schema: deleteVesselSchema, module: deleteVessel },
  [FORMATION_ADD]: { schema: addToFormationSchema, module: addToFormation },
  [FORMATION_REMOVE]: { schema: removeFromFormationSchema, module: removeFromFormation },
  [REGION_CREATE]: { schema: createRegionSchema, module: createRegion },
  [REGION_SCHEDULING]: { schema: setRegionSchedulingSchema, module: setRegionScheduling },
  [ARMADA_SCALE]: { schema: scaleArmadaSchema, module: scaleArmada },
  [ARMADASET_SCALE]: { schema: scaleArmadaSetSchema, module: scaleArmadaSet },
  [ARMADA_IMAGE]: { schema: imageArmadaSchema, module: imageArmada },
  [ARMADASET_IMAGE]: { schema: imageArmadaSetSchema, module: imageArmadaSet },
  [GAMESERVER_TERMINATE]: { schema: terminateGameServerSchema, module: terminateGameServer },
  [CHANGE_ROLLBACK]: { schema: rollbackSchema, module: rollbackChange },
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
