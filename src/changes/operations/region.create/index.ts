/** The operation's entry in the change table: its id, request schema, module. */

import { createRegionSchema } from '../../requests/regions.js';
import { operationEntry } from '../entry.js';
import { REGION_CREATE } from './id.js';
import { createRegion } from './operation.js';

export const regionCreateEntry = operationEntry({
  id: REGION_CREATE,
  schema: createRegionSchema,
  module: createRegion,
});
