/**
 * A fleet's replicas set back (armada.scale and armadaset.scale are their own
 * inverses): the request is what the scale recorded when it applied, `after`
 * the counts it left and `before` the ones it replaced. What the values do (a
 * drain, a dynamic buffer) is said as the scale's own preview says it
 * (`scaleWarnings`, issue 38).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Armada, ArmadaSet } from '../../api-shapes/armada-resources.js';
import type { ReplicaValues } from '../../api-shapes/replica-rules.js';
import { readFleet } from '../fleet-read.js';
import type { OperationContext } from '../operation.js';
import { gone } from '../rollback/gone.js';
import { fleetWhere } from '../rollback/inverse-words.js';
import { type GuardFinding, moved, NO_EFFECTS, type Restore, UNCHANGED } from '../rollback/restore.js';
import { SCALE_NOTES, type ScaleSet, scaleWarnings } from './scale-fleet.js';

const counts = (v: { minReplicas: number; bufferSize: number; maxReplicas: number }) =>
  `min ${v.minReplicas}, buffer ${v.bufferSize}, max ${v.maxReplicas}`;

/** The distribution entry of the request's region type as read now; undefined entry when it has none. */
async function entryOf(ctx: OperationContext, u: ScaleSet) {
  const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name).catch(gone);
  if (!fleet) return undefined;
  const entries =
    u.fleet === 'ArmadaSet'
      ? (fleet as ArmadaSet).spec.armadas.find((a) => a.region === u.region)?.distribution
      : (fleet as Armada).spec.distribution;
  return { fleet, entry: entries?.find((e) => e.name === u.type) };
}

/** Whether the fleet shows `after` for the region type, or what it shows instead. */
async function shows(ctx: OperationContext, u: ScaleSet, after: ReplicaValues): Promise<GuardFinding> {
  const read = await entryOf(ctx, u);
  if (!read) return moved(`${fleetWhere(u)} no longer exists`);
  if (!read.entry) return moved(`${fleetWhere(u)} no longer has region type ${u.type}`);
  const now = {
    minReplicas: read.entry.minReplicas ?? 0,
    bufferSize: read.entry.bufferSize ?? 0,
    maxReplicas: read.entry.maxReplicas ?? 0,
  };
  return isDeepStrictEqual(now, {
    minReplicas: after.minReplicas,
    bufferSize: after.bufferSize,
    maxReplicas: after.maxReplicas,
  })
    ? UNCHANGED
    : moved(`${fleetWhere(u)}, region type ${u.type}, now has ${counts(now)}`);
}

export type { ScaleSet };

export const restoreScale: Restore<ScaleSet> = {
  view: (u) => ({
    target:
      u.fleet === 'ArmadaSet'
        ? { environment: u.environment, armadaSet: u.name, ...(u.region ? { region: u.region } : {}) }
        : { environment: u.environment, armada: u.name },
    summary: `Scale ${fleetWhere(u)} (${u.environment}), region type ${u.type}, back to ${counts(u.before)}`,
    lines: [{ label: 'Replicas', value: `${counts(u.after)} → ${counts(u.before)}` }],
    destructive: false,
    warnings: [],
    notes: [],
    subject: `replicas of ${fleetWhere(u)}, region type ${u.type}`,
  }),

  guard: (ctx, u) => shows(ctx, u, u.after),

  async write(ctx, u) {
    await ctx.client.setDistribution(
      {
        kind: u.fleet,
        env: u.environment,
        name: u.name,
        type: u.type,
        ...(u.region ? { region: u.region } : {}),
      },
      u.after,
      u.before,
      { maxAttempts: 1 },
    );
  },

  restored: async (ctx, u) => (await shows(ctx, u, u.before)).kind === 'unchanged',

  subjectKey: (u) => ['scale', u.fleet, u.environment, u.name, u.region ?? '', u.type].join('|'),

  async effects(ctx, u) {
    const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name);
    const entries =
      u.fleet === 'ArmadaSet'
        ? (fleet as ArmadaSet).spec.armadas.find((a) => a.region === u.region)?.distribution
        : (fleet as Armada).spec.distribution;
    const entry = entries?.find((e) => e.name === u.type);
    if (!entry) return NO_EFFECTS;
    return {
      lines: [],
      warnings: scaleWarnings({
        kind: u.fleet,
        fleet,
        entry,
        type: u.type,
        where: fleetWhere(u),
        next: u.before,
        bufferSet: u.before.bufferSize !== u.after.bufferSize,
      }),
      notes: [...SCALE_NOTES],
    };
  },
};
