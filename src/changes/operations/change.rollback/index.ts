/** The operation's entry in the change table: its id, request schema, module. */

import { rollbackSchema } from '../../requests/rollback.js';
import { operationEntry } from '../entry.js';
import { CHANGE_ROLLBACK } from './id.js';
import { rollbackChange } from './operation.js';

export const changeRollbackEntry = operationEntry({
  id: CHANGE_ROLLBACK,
  schema: rollbackSchema,
  module: rollbackChange,
});
