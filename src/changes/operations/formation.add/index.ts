/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { addToFormationSchema } from '../../requests/formations.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { type AddedEntry, restoreAdded } from '../formation.remove/restore.js';
import { FORMATION_ADD } from './id.js';
import { addToFormation } from './operation.js';

export const formationAddEntry = operationEntry({
  id: FORMATION_ADD,
  schema: addToFormationSchema,
  module: addToFormation,
  // Set back by formation.remove: the entry added, removed again.
  undo: undoneBy(restoreAdded, (u: AddedEntry) => u),
});
