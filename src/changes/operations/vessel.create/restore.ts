/**
 * vessel.create's restore: a vessel a vessel.delete deleted, created again
 * from the spec it had (read just before the delete); a create fails on a
 * taken name, which is the guard again at the write.
 */
import { ApiError, type VesselCreate } from '../../../gamefabric/client.js';
import { gone } from '../../rollback/gone.js';
import { moved, type Restore, UNCHANGED } from '../../rollback/restore.js';

/** The vessel to create again: what vessel.delete recorded when it applied. */
export interface DeletedVessel {
  environment: string;
  name: string;
  /** The Vessel as read just before the delete, as a create body. */
  vessel: VesselCreate;
  uid: string | null;
}

export const restoreDeleted: Restore<DeletedVessel> = {
  view: (u) => ({
    target: { environment: u.environment, vessel: u.name },
    summary: `Create vessel ${u.name} in ${u.environment} again, from the spec it had`,
    lines: [{ label: 'Vessel', value: `none → ${u.name} (region ${u.vessel.spec.region})` }],
    destructive: false,
    warnings: [
      `This is a new vessel with a new game server: the one that was deleted, and its matches, do not come back.`,
    ],
    notes: [],
    subject: `vessel ${u.name}`,
  }),

  async guard(ctx, u) {
    const vessel = await ctx.client.getVessel(u.environment, u.name).catch(gone);
    return vessel ? moved(`a vessel named ${u.name} exists again`) : UNCHANGED;
  },

  async write(ctx, u) {
    await ctx.client.createVessel(u.environment, u.vessel);
  },

  async restored(ctx, u) {
    const vessel = await ctx.client.getVessel(u.environment, u.name).catch(gone);
    return vessel !== undefined && vessel.metadata.uid !== u.uid;
  },

  subjectKey: (u) => ['vessel', u.environment, u.name].join('|'),

  movedBy: (err, u) =>
    err instanceof ApiError && err.status === 409 ? `a vessel named ${u.name} exists again` : undefined,
};
