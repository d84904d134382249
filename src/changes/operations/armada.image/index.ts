/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { imageArmadaSchema } from '../../requests/fleets.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { imageArmada } from '../set-fleet-image.js';
import { type ImageSet, restoreImage } from '../set-fleet-image-restore.js';
import { ARMADA_IMAGE } from './id.js';

export const armadaImageEntry = operationEntry({
  id: ARMADA_IMAGE,
  schema: imageArmadaSchema,
  module: imageArmada,
  // Its own inverse: the image it replaced, rolled out again.
  undo: undoneBy(restoreImage, (u: ImageSet) => u),
});
