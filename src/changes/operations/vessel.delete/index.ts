/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { deleteVesselSchema } from '../../requests/vessels.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { type DeletedVessel, restoreDeleted } from '../vessel.create/restore.js';
import { VESSEL_DELETE } from './id.js';
import { deleteVessel } from './operation.js';

export const vesselDeleteEntry = operationEntry({
  id: VESSEL_DELETE,
  schema: deleteVesselSchema,
  module: deleteVessel,
  // Set back by vessel.create: the vessel created again from the spec it had.
  undo: undoneBy(restoreDeleted, (u: DeletedVessel) => u),
});
