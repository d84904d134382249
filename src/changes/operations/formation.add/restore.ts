/**
 * formation.add's restore: a vessel a formation.remove removed, added back
 * with the entry it had (region and overrides, as the remove recorded it).
 */
import type { FormationVessel } from '../../../api-shapes/resources.js';
import { gone } from '../../rollback/gone.js';
import { moved, type Restore, UNCHANGED } from '../../rollback/restore.js';
import { vesselEntry } from '../formation-entry-words.js';

/** The entry to add back: what formation.remove recorded when it applied. */
export interface RemovedEntry {
  environment: string;
  formation: string;
  /** The entry removed, as the guarded patch read it (region and overrides). */
  vessel: FormationVessel;
  index: number;
}

export const restoreRemoved: Restore<RemovedEntry> = {
  view: (u) => ({
    target: {
      environment: u.environment,
      formation: u.formation,
      vessel: u.vessel.name,
      region: u.vessel.region,
    },
    summary: `Add vessel ${u.vessel.name} back to formation ${u.formation} in ${u.environment}`,
    lines: [{ label: 'Vessel', value: `none → ${u.vessel.name} (${vesselEntry(u.vessel)})` }],
    destructive: false,
    warnings: [
      `This is a new vessel named ${u.vessel.name}: it starts new game servers; the ones that stopped do not come back.`,
    ],
    notes: [],
    subject: `vessel ${u.vessel.name} of formation ${u.formation}`,
  }),

  async guard(ctx, u) {
    const formation = await ctx.client.getFormation(u.environment, u.formation).catch(gone);
    if (!formation) return moved(`formation ${u.formation} no longer exists`);
    const entry = formation.spec.vessels.find((v) => v.name === u.vessel.name);
    return entry
      ? moved(`formation ${u.formation} has a vessel ${u.vessel.name} again (${vesselEntry(entry)})`)
      : UNCHANGED;
  },

  async write(ctx, u) {
    await ctx.client.appendVesselToFormation(u.environment, u.formation, u.vessel);
  },

  async restored(ctx, u) {
    const formation = await ctx.client.getFormation(u.environment, u.formation).catch(gone);
    return formation?.spec.vessels.some((v) => v.name === u.vessel.name) ?? false;
  },

  subjectKey: (u) => ['formation', u.environment, u.formation, u.vessel.name].join('|'),
};
