/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { scaleArmadaSchema } from '../../requests/fleets.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { scaleArmada } from '../scale-fleet.js';
import { restoreScale, type ScaleSet } from '../scale-fleet-restore.js';
import { ARMADA_SCALE } from './id.js';

export const armadaScaleEntry = operationEntry({
  id: ARMADA_SCALE,
  schema: scaleArmadaSchema,
  module: scaleArmada,
  // Its own inverse: the counts it replaced, set again.
  undo: undoneBy(restoreScale, (u: ScaleSet) => u),
});
