/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { promoteImageSchema } from '../../requests/images.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { IMAGE_PROMOTE } from './id.js';
import { promoteImage } from './operation.js';
import { restorePromotion } from './restore.js';
import type { Promotion } from './undo.js';

export const imagePromoteEntry = operationEntry({
  id: IMAGE_PROMOTE,
  schema: promoteImageSchema,
  module: promoteImage,
  // A promotion is set back by its own restore, target by target.
  undo: undoneBy(restorePromotion, (u: Promotion) => u),
});
