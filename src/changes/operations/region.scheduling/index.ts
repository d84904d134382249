/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { setRegionSchedulingSchema } from '../../requests/regions.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { REGION_SCHEDULING } from './id.js';
import { setRegionScheduling } from './operation.js';
import { restoreScheduling, type SchedulingSet } from './restore.js';

export const regionSchedulingEntry = operationEntry({
  id: REGION_SCHEDULING,
  schema: setRegionSchedulingSchema,
  module: setRegionScheduling,
  // Its own inverse: the scheduling it replaced, set again.
  undo: undoneBy(restoreScheduling, (u: SchedulingSet) => u),
});
