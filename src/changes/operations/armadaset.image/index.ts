/** The operation's entry in the change table: its id, request schema, module and its rollback. */

import { imageArmadaSetSchema } from '../../requests/fleets.js';
import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { imageArmadaSet } from '../set-fleet-image.js';
import { type ImageSet, restoreImage } from '../set-fleet-image-restore.js';
import { ARMADASET_IMAGE } from './id.js';

export const armadaSetImageEntry = operationEntry({
  id: ARMADASET_IMAGE,
  schema: imageArmadaSetSchema,
  module: imageArmadaSet,
  // Its own inverse: the image it replaced, rolled out again.
  undo: undoneBy(restoreImage, (u: ImageSet) => u),
});
