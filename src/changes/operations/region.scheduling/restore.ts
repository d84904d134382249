/**
 * A region type's scheduling set back (this operation is its own inverse):
 * the request is what its apply recorded, `after` the scheduling it left and
 * `before` the one it replaced.
 */
import { schedulingOf } from '../../../api-shapes/resources.js';
import { gone } from '../../rollback/gone.js';
import { InverseMovedError, moved, type Restore, UNCHANGED } from '../../rollback/restore.js';

/** What a scheduling change recorded when it applied (its undo), and the request that sets it back. */
export interface SchedulingSet {
  environment: string;
  region: string;
  type: string;
  before: string;
  after: string;
}

export const restoreScheduling: Restore<SchedulingSet> = {
  view: (u) => ({
    target: { environment: u.environment, region: u.region },
    summary: `Set scheduling of region type ${u.type} in ${u.region} (${u.environment}) back to ${u.before}`,
    lines: [{ label: 'Scheduling', value: `${u.after} → ${u.before}` }],
    destructive: false,
    warnings: [],
    notes: ['Only game servers started afterwards use the restored scheduling.'],
    subject: `scheduling of ${u.region}/${u.type}`,
  }),

  async guard(ctx, u) {
    const region = await ctx.client.getRegion(u.environment, u.region).catch(gone);
    if (!region) return moved(`region ${u.region} no longer exists`);
    const type = region.spec.types.find((t) => t.name === u.type);
    if (!type) return moved(`region ${u.region} no longer has a type ${u.type}`);
    const now = schedulingOf(type);
    return now === u.after ? UNCHANGED : moved(`scheduling of ${u.region}/${u.type} is now ${now}`);
  },

  async write(ctx, u) {
    const region = await ctx.client.getRegion(u.environment, u.region);
    const index = region.spec.types.findIndex((t) => t.name === u.type);
    if (index < 0) throw new InverseMovedError(`region ${u.region} no longer has a type ${u.type}`);
    await ctx.client.patchRegion(u.environment, u.region, [
      { op: 'test', path: `/spec/types/${index}/name`, value: u.type },
      { op: 'test', path: `/spec/types/${index}/template/scheduling`, value: u.after },
      { op: 'replace', path: `/spec/types/${index}/template/scheduling`, value: u.before },
    ]);
  },

  async restored(ctx, u) {
    const region = await ctx.client.getRegion(u.environment, u.region).catch(gone);
    const type = region?.spec.types.find((t) => t.name === u.type);
    return type !== undefined && schedulingOf(type) === u.before;
  },

  subjectKey: (u) => ['scheduling', u.environment, u.region, u.type].join('|'),
};
