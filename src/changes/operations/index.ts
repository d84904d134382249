/** The registry of change operations, by policy operation id. */
import type { ChangeOperation } from '../../policy/operations.js';
import type { OperationModule } from '../operation.js';
import { rollbackChange } from '../rollback/rollback-operation.js';
import { addToFormation } from './add-to-formation.js';
import { createRegion } from './create-region.js';
import { createVessel } from './create-vessel.js';
import { deleteVessel } from './delete-vessel.js';
import { promoteImage } from './promote-image.js';
import { removeFromFormation } from './remove-from-formation.js';
import { scaleArmada, scaleArmadaSet } from './scale-fleet.js';
import { imageArmada, imageArmadaSet } from './set-fleet-image.js';
import { setRegionScheduling } from './set-region-scheduling.js';

const MODULES = {
  'image.promote': promoteImage,
  'vessel.create': createVessel,
  'vessel.delete': deleteVessel,
  'formation.add': addToFormation,
  'formation.remove': removeFromFormation,
  'region.create': createRegion,
  'region.scheduling': setRegionScheduling,
  'armada.scale': scaleArmada,
  'armadaset.scale': scaleArmadaSet,
  'armada.image': imageArmada,
  'armadaset.image': imageArmadaSet,
  'change.rollback': rollbackChange,
} satisfies Record<ChangeOperation, unknown>;

/** The module for an operation id. */
export function operationModule(id: ChangeOperation): OperationModule<unknown> {
  // Each module is typed by its own request; the engine only passes it what its own parse() returned.
  return MODULES[id] as unknown as OperationModule<unknown>;
}
