/**
 * formation.remove's restore: a vessel a formation.add added, removed again
 * (the request is what the add recorded: the entry as written).
 */
import type { FormationVessel } from '../../../api-shapes/resources.js';
import { gone } from '../../rollback/gone.js';
import { moved, type Restore, UNCHANGED } from '../../rollback/restore.js';
import { formationVesselShutdownText } from '../../vessel-shutdown.js';
import { sameEntry, vesselEntry } from '../formation-entry-words.js';

/** The entry to remove again: what formation.add recorded when it applied. */
export interface AddedEntry {
  environment: string;
  formation: string;
  /** The entry added, as written. */
  vessel: FormationVessel;
}

export const restoreAdded: Restore<AddedEntry> = {
  view: (u) => ({
    target: { environment: u.environment, formation: u.formation, vessel: u.vessel.name },
    summary: `Remove vessel ${u.vessel.name} from formation ${u.formation} in ${u.environment} again`,
    lines: [{ label: 'Vessel', value: `${u.vessel.name} (${vesselEntry(u.vessel)}) → removed` }],
    destructive: true,
    warnings: [formationVesselShutdownText(u.vessel.name)],
    notes: [],
    subject: `vessel ${u.vessel.name} of formation ${u.formation}`,
  }),

  async guard(ctx, u) {
    const formation = await ctx.client.getFormation(u.environment, u.formation).catch(gone);
    if (!formation) return moved(`formation ${u.formation} no longer exists`);
    const entry = formation.spec.vessels.find((v) => v.name === u.vessel.name);
    if (!entry) return moved(`vessel ${u.vessel.name} is no longer in formation ${u.formation}`);
    return sameEntry(entry, u.vessel)
      ? UNCHANGED
      : moved(`vessel ${u.vessel.name} of formation ${u.formation} now has ${vesselEntry(entry)}`);
  },

  async write(ctx, u) {
    await ctx.client.removeVesselFromFormation(u.environment, u.formation, u.vessel.name);
  },

  async restored(ctx, u) {
    const formation = await ctx.client.getFormation(u.environment, u.formation).catch(gone);
    return formation !== undefined && !formation.spec.vessels.some((v) => v.name === u.vessel.name);
  },

  subjectKey: (u) => ['formation', u.environment, u.formation, u.vessel.name].join('|'),
};
