/** The operation's entry in the change table: its id, request schema, module. */

import { terminateGameServerSchema } from '../../requests/gameservers.js';
import { operationEntry } from '../entry.js';
import { GAMESERVER_TERMINATE } from './id.js';
import { terminateGameServer } from './operation.js';

export const gameServerTerminateEntry = operationEntry({
  id: GAMESERVER_TERMINATE,
  schema: terminateGameServerSchema,
  module: terminateGameServer,
});
