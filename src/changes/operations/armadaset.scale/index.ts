/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { scaleArmadaSetSchema } from '../../requests/fleets.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { scaleArmadaSet } from '../scale-fleet.js';
import { restoreScale, type ScaleSet } from '../scale-fleet-restore.js';
import { ARMADASET_SCALE } from './id.js';

export const armadaSetScaleEntry = operationEntry({
  id: ARMADASET_SCALE,
  schema: scaleArmadaSetSchema,
  module: scaleArmadaSet,
  // Its own inverse: the counts it replaced, set again.
  undo: undoneBy(restoreScale, (u: ScaleSet) => u),
});
