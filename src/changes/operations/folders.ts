/**
 * The operations' folders, each one entry (its `index.ts`): the change table
 * (index.ts) is built from them and the rollback lifecycle finds an applied
 * change's restore in them. The rollback operation itself is added by the
 * table, since it reads this list.
 */
import { armadaImageEntry } from './armada.image/index.js';
import { armadaScaleEntry } from './armada.scale/index.js';
import { armadaSetImageEntry } from './armadaset.image/index.js';
import { armadaSetScaleEntry } from './armadaset.scale/index.js';
import { formationAddEntry } from './formation.add/index.js';
import { formationRemoveEntry } from './formation.remove/index.js';
import { gameServerTerminateEntry } from './gameserver.terminate/index.js';
import { imagePromoteEntry } from './image.promote/index.js';
import { regionCreateEntry } from './region.create/index.js';
import { regionSchedulingEntry } from './region.scheduling/index.js';
import { vesselCreateEntry } from './vessel.create/index.js';
import { vesselDeleteEntry } from './vessel.delete/index.js';

export const FOLDERS = [
  imagePromoteEntry,
  vesselCreateEntry,
  vesselDeleteEntry,
  formationAddEntry,
  formationRemoveEntry,
  regionCreateEntry,
  regionSchedulingEntry,
  armadaScaleEntry,
  armadaSetScaleEntry,
  armadaImageEntry,
  armadaSetImageEntry,
  gameServerTerminateEntry,
] as const;
