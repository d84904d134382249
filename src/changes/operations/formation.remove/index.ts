/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { removeFromFormationSchema } from '../../requests/formations.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { type RemovedEntry, restoreRemoved } from '../formation.add/restore.js';
import { FORMATION_REMOVE } from './id.js';
import { removeFromFormation } from './operation.js';

export const formationRemoveEntry = operationEntry({
  id: FORMATION_REMOVE,
  schema: removeFromFormationSchema,
  module: removeFromFormation,
  // Set back by formation.add: the entry removed, added back as it was.
  undo: undoneBy(restoreRemoved, (u: RemovedEntry) => u),
});
