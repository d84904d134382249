/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { createVesselSchema } from '../../requests/vessels.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { type CreatedVessel, restoreCreated } from '../vessel.delete/restore.js';
import { VESSEL_CREATE } from './id.js';
import { createVessel } from './operation.js';

export const vesselCreateEntry = operationEntry({
  id: VESSEL_CREATE,
  schema: createVesselSchema,
  module: createVessel,
  // Set back by vessel.delete: the vessel created, deleted again while it is still the one created.
  undo: undoneBy(restoreCreated, (u: CreatedVessel) => u),
});
