/**
 * vessel.delete's restore: a vessel a vessel.create created, deleted again,
 * when it is still the one created (its uid and the spec the API answered).
 */
import { isDeepStrictEqual } from 'node:util';
import { gone } from '../../rollback/gone.js';
import { moved, type Restore, UNCHANGED } from '../../rollback/restore.js';
import { vesselShutdownText } from '../../vessel-shutdown.js';

/** The vessel to delete again: what vessel.create recorded when it applied (the API's answer). */
export interface CreatedVessel {
  environment: string;
  name: string;
  /** The API's answer: the new Vessel's uid and spec. */
  uid: string | null;
  spec: unknown;
}

/** The parts of a Vessel spec a person set (region and template), for comparing reads. */
function specOf(spec: unknown): unknown {
  const s = (spec ?? {}) as { region?: unknown; template?: unknown };
  return { region: s.region, template: s.template };
}

export const restoreCreated: Restore<CreatedVessel> = {
  view: (u) => ({
    target: { environment: u.environment, vessel: u.name },
    summary: `Delete vessel ${u.name} in ${u.environment} again`,
    lines: [{ label: 'Vessel', value: `${u.name} → deleted` }],
    destructive: true,
    warnings: [vesselShutdownText(u.name)],
    notes: [],
    subject: `vessel ${u.name}`,
  }),

  async guard(ctx, u) {
    const vessel = await ctx.client.getVessel(u.environment, u.name).catch(gone);
    if (!vessel) return moved(`vessel ${u.name} is gone already`);
    if (u.uid && vessel.metadata.uid && vessel.metadata.uid !== u.uid)
      return moved(`vessel ${u.name} is a different vessel now (re-created)`);
    return isDeepStrictEqual(specOf(vessel.spec), specOf(u.spec))
      ? UNCHANGED
      : moved(`vessel ${u.name} now has another spec than the one created`);
  },

  async write(ctx, u) {
    await ctx.client.deleteVessel(u.environment, u.name);
  },

  restored: async (ctx, u) => (await ctx.client.getVessel(u.environment, u.name).catch(gone)) === undefined,

  subjectKey: (u) => ['vessel', u.environment, u.name].join('|'),
};
