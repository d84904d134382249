/**
 * The inverse of each kind of applied change, from what its apply stored
 * (undo.ts): what it will do in words, a read that says whether the target
 * still shows what the change left (the guard), the guarded write, and a
 * read-only check for crash recovery. A guard that finds the target moved
 * names what it found; the write itself is guarded again (a JSON Patch `test`
 * of what the guard read, or a create that fails on a taken name), so a
 * change slipping in between the guard and the write is refused too.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Armada, ArmadaSet } from '../../api-shapes/armada-resources.js';
import { schedulingOf } from '../../api-shapes/resources.js';
import {
  ApiError,
  ArmadaMovedError,
  ContainerNotInTemplateError,
  DuplicateVesselError,
  RegionNotInArmadaSetError,
  RegionTypeNotInDistributionError,
  VesselNotInFormationError,
} from '../../gamefabric/client.js';
import { isNotFound } from '../../gamefabric/errors.js';
import { CHANGE_OPERATIONS, describe } from '../../operations/index.js';
import type { ChangeOperation, Target } from '../../policy/operations.js';
import { readFleet } from '../fleet-read.js';
import type { Line, OperationContext } from '../operation.js';
import { formationVesselShutdownText, vesselShutdownText } from '../vessel-shutdown.js';
import { fleetWhere, isFleetTarget, promotedWhere } from './inverse-words.js';
import type { PromotedTarget, Undo } from './undo.js';

/** What an inverse will do, as a preview shows it. */
export interface InverseView {
  target: Target;
  /** One sentence: what the rollback sets back. */
  summary: string;
  /** before -> after, where after is the state before the original change. */
  lines: Line[];
  destructive: boolean;
  warnings: string[];
  notes: string[];
  /** What the guard compares, in words (e.g. "scheduling of eu-central/cloud"). */
  subject: string;
  /** When the inverse writes several targets: the operation and target the policy judges for each. */
  judgements?: { operation: ChangeOperation; target: Target }[];
  /** Targets judged as the original change itself (no other operation writes them): a promotion's Formations. */
  judgedAsOriginal?: Target[];
  /** What the original changed that this rollback does not set back, each with why (the preview and the result name them). */
  notSetBack?: string[];
}

/**
 * The change operation whose inverse writes a `fleet`'s image: the one whose
 * descriptor rolls that kind of fleet out and is its own inverse (armada or
 * armadaset image), found in the catalogue so its id is written once.
 */
function imageOperationOf(fleet: string): ChangeOperation {
  const op = CHANGE_OPERATIONS.find((o) => {
    const d = describe(o);
    return d.rollsOut?.kind === fleet && d.rollback && 'inverse' in d.rollback && d.rollback.inverse === o;
  });
  if (!op) throw new Error(`no operation rolls out ${fleet} images`);
  return op;
}

/** The policy's target for one promotion target: the fleet, Formation or Vessel it writes. */
const promotedTarget = (t: PromotedTarget): Target =>
  t.fleet === 'ArmadaSet'
    ? { environment: t.environment, armadaSet: t.name }
    : t.fleet === 'Formation'
      ? { environment: t.environment, formation: t.name }
      : t.fleet === 'Vessel'
        ? { environment: t.environment, vessel: t.name }
        : { environment: t.environment, armada: t.name };
const promotedKey = (t: PromotedTarget) => ['image', t.fleet, t.environment, t.name, t.container].join('|');

/** The template containers of a promotion's target as read now; undefined when it is gone. */
async function promotedContainers(ctx: OperationContext, t: PromotedTarget) {
  const c = ctx.client;
  if (isFleetTarget(t))
    return (await readFleet(c, t.fleet, t.environment, t.name).catch(gone))?.spec.template.spec.containers;
  if (t.fleet === 'Formation') {
    const formation = await c.getFormation(t.environment, t.name).catch(gone);
    return formation ? (formation.spec.template?.spec.containers ?? []) : undefined;
  }
  return (await c.getVessel(t.environment, t.name).catch(gone))?.spec.template.spec.containers;
}

/**
 * Vessels are named, not set back: Harbormaster has no write for a Vessel's
 * template (the provider updates one by merge patch; not built here).
 */
const writable = (t: PromotedTarget) => t.fleet !== 'Vessel';

/** The first promotion target whose container no longer runs the promoted copy, in words; undefined when none moved. */
async function promotionMoved(ctx: OperationContext, targets: readonly PromotedTarget[]) {
  for (const t of targets) {
    const containers = await promotedContainers(ctx, t);
    if (!containers) return `${promotedWhere(t)} no longer exists`;
    const container = containers.find((x) => x.name === t.container);
    if (!container) return `${promotedWhere(t)} no longer has a container ${t.container}`;
    if (container.image !== t.after)
      return `container ${t.container} of ${promotedWhere(t)} now runs ${container.image ?? 'no image'}, not the promoted ${t.afterLabel}`;
  }
  return undefined;
}

const counts = (v: { minReplicas: number; bufferSize: number; maxReplicas: number }) =>
  `min ${v.minReplicas}, buffer ${v.bufferSize}, max ${v.maxReplicas}`;

const vesselEntry = (v: { region: string; override?: unknown }) =>
  v.override ? `region ${v.region}, with its overrides` : `region ${v.region}`;

/** The inverse of `u` in words, and the target the policy judges it on (the operation is the original's descriptor's `rollback.inverse`). */
export function inverseView(u: Undo): InverseView {
  switch (u.kind) {
    case 'scheduling':
      return {
        target: { environment: u.environment, region: u.region },
        summary: `Set scheduling of region type ${u.type} in ${u.region} (${u.environment}) back to ${u.before}`,
        lines: [{ label: 'Scheduling', value: `${u.after} → ${u.before}` }],
        destructive: false,
        warnings: [],
        notes: ['Only game servers started afterwards use the restored scheduling.'],
        subject: `scheduling of ${u.region}/${u.type}`,
      };
    case 'fleet.scale':
      // What the values do (a drain, a dynamic buffer) is said as the scale's own preview says it (inverse-effects.ts).
      return {
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
      };
    case 'fleet.image':
      return {
        target:
          u.fleet === 'ArmadaSet'
            ? { environment: u.environment, armadaSet: u.name }
            : { environment: u.environment, armada: u.name },
        summary: `Roll ${fleetWhere(u)} (${u.environment}), container ${u.container}, back to ${u.beforeLabel}`,
        lines: [
          { label: 'Image', value: `${u.afterLabel} → ${u.beforeLabel}` },
          { label: 'Internal name', value: `${u.after} → ${u.before ?? 'none'}`, secondary: true },
        ],
        destructive: false,
        // The strategy and the ImageUpdaters are said as the image change's own preview says them (inverse-effects.ts).
        warnings: [],
        notes: [],
        subject: `the image of container ${u.container} of ${fleetWhere(u)}`,
      };
    case 'vessel.added':
      return {
        target: { environment: u.environment, formation: u.formation, vessel: u.vessel.name },
        summary: `Remove vessel ${u.vessel.name} from formation ${u.formation} in ${u.environment} again`,
        lines: [{ label: 'Vessel', value: `${u.vessel.name} (${vesselEntry(u.vessel)}) → removed` }],
        destructive: true,
        warnings: [formationVesselShutdownText(u.vessel.name)],
        notes: [],
        subject: `vessel ${u.vessel.name} of formation ${u.formation}`,
      };
    case 'vessel.removed':
      return {
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
      };
    case 'vessel.created':
      return {
        target: { environment: u.environment, vessel: u.name },
        summary: `Delete vessel ${u.name} in ${u.environment} again`,
        lines: [{ label: 'Vessel', value: `${u.name} → deleted` }],
        destructive: true,
        warnings: [vesselShutdownText(u.name)],
        notes: [],
        subject: `vessel ${u.name}`,
      };
    case 'vessel.deleted':
      return {
        target: { environment: u.environment, vessel: u.name },
        summary: `Create vessel ${u.name} in ${u.environment} again, from the spec it had`,
        lines: [{ label: 'Vessel', value: `none → ${u.name} (region ${u.vessel.spec.region})` }],
        destructive: false,
        warnings: [
          `This is a new vessel with a new game server: the one that was deleted, and its matches, do not come back.`,
        ],
        notes: [],
        subject: `vessel ${u.name}`,
      };
    case 'image.promotion': {
      const written = u.targets.filter(writable);
      const first = written[0];
      const updaters = [...new Set(u.targets.map((t) => t.updater))].sort();
      const one = updaters.length === 1;
      const image = u.promoted.split(':')[0];
      return {
        target: first ? promotedTarget(first) : {},
        summary: `Set back the images promotion of ${u.promoted} into ${u.branch} rolled out to ${written.map(promotedWhere).join(', ')}`,
        lines: written.map((t) => ({
          label: `Image of ${promotedWhere(t)}, container ${t.container}`,
          value: `${t.afterLabel} → ${t.beforeLabel}`,
        })),
        destructive: false,
        warnings: [
          `${one ? 'ImageUpdater' : 'ImageUpdaters'} ${updaters.join(', ')} ${one ? 'rolls' : 'roll'} forward again when a newer ${image} tag arrives in ${u.branch} (auto-update): this rollback lasts only until then.`,
        ],
        // How each fleet replaces its game servers is read from it (inverse-effects.ts).
        notes: [`The promoted image ${u.promoted} stays in branch ${u.branch}: rollback does not delete it.`],
        subject: `the images the promotion of ${u.promoted} rolled out`,
        // A fleet is judged as its image change; a Formation, which no operation of ours writes
        // otherwise, as the promotion into that branch that rolled it out.
        judgements: written.filter(isFleetTarget).map((t) => ({
          operation: imageOperationOf(t.fleet),
          target: promotedTarget(t),
        })),
        ...(written.some((t) => !isFleetTarget(t)) ? { judgedAsOriginal: [{ branch: u.branch }] } : {}),
        notSetBack: [
          ...u.targets
            .filter((t) => !writable(t))
            .map(
              (t) =>
                `${promotedWhere(t)}, container ${t.container}: stays on ${t.afterLabel} (ImageUpdater ${t.updater}); Harbormaster does not write a Vessel's image, so set it back to ${t.beforeLabel} in the GameFabric console`,
            ),
          ...(u.unrecorded ?? []).map(
            (x) =>
              `${fleetWhere({ fleet: x.kind, name: x.name })} (${x.environment}): stays on what ImageUpdater ${x.updater} rolled out; ${x.why}`,
          ),
        ],
      };
    }
  }
}

/** What the guard found: the target as the change left it, or (a clause naming it) what it shows now instead. */
export type GuardFinding = { kind: 'unchanged' } | { kind: 'moved'; now: string };

const moved = (now: string): GuardFinding => ({ kind: 'moved', now });
const UNCHANGED: GuardFinding = { kind: 'unchanged' };

/** Reads the target and says whether it still shows what the original change left. Reads only. */
export async function guard(ctx: OperationContext, u: Undo): Promise<GuardFinding> {
  const c = ctx.client;
  switch (u.kind) {
    case 'scheduling': {
      const region = await c.getRegion(u.environment, u.region).catch(gone);
      if (!region) return moved(`region ${u.region} no longer exists`);
      const type = region.spec.types.find((t) => t.name === u.type);
      if (!type) return moved(`region ${u.region} no longer has a type ${u.type}`);
      const now = schedulingOf(type);
      return now === u.after ? UNCHANGED : moved(`scheduling of ${u.region}/${u.type} is now ${now}`);
    }
    case 'fleet.scale': {
      const fleet = await readFleet(c, u.fleet, u.environment, u.name).catch(gone);
      if (!fleet) return moved(`${fleetWhere(u)} no longer exists`);
      const entries =
        u.fleet === 'ArmadaSet'
          ? (fleet as ArmadaSet).spec.armadas.find((a) => a.region === u.region)?.distribution
          : (fleet as Armada).spec.distribution;
      const entry = entries?.find((e) => e.name === u.type);
      if (!entry) return moved(`${fleetWhere(u)} no longer has region type ${u.type}`);
      const now = {
        minReplicas: entry.minReplicas ?? 0,
        bufferSize: entry.bufferSize ?? 0,
        maxReplicas: entry.maxReplicas ?? 0,
      };
      return isDeepStrictEqual(now, {
        minReplicas: u.after.minReplicas,
        bufferSize: u.after.bufferSize,
        maxReplicas: u.after.maxReplicas,
      })
        ? UNCHANGED
        : moved(`${fleetWhere(u)}, region type ${u.type}, now has ${counts(now)}`);
    }
    case 'fleet.image': {
      const fleet = await readFleet(c, u.fleet, u.environment, u.name).catch(gone);
      if (!fleet) return moved(`${fleetWhere(u)} no longer exists`);
      const container = fleet.spec.template.spec.containers.find((x) => x.name === u.container);
      if (!container) return moved(`${fleetWhere(u)} no longer has a container ${u.container}`);
      return container.image === u.after
        ? UNCHANGED
        : moved(`container ${u.container} of ${fleetWhere(u)} now runs ${container.image ?? 'no image'}`);
    }
    case 'vessel.added': {
      const formation = await c.getFormation(u.environment, u.formation).catch(gone);
      if (!formation) return moved(`formation ${u.formation} no longer exists`);
      const entry = formation.spec.vessels.find((v) => v.name === u.vessel.name);
      if (!entry) return moved(`vessel ${u.vessel.name} is no longer in formation ${u.formation}`);
      return sameEntry(entry, u.vessel)
        ? UNCHANGED
        : moved(`vessel ${u.vessel.name} of formation ${u.formation} now has ${vesselEntry(entry)}`);
    }
    case 'vessel.removed': {
      const formation = await c.getFormation(u.environment, u.formation).catch(gone);
      if (!formation) return moved(`formation ${u.formation} no longer exists`);
      const entry = formation.spec.vessels.find((v) => v.name === u.vessel.name);
      return entry
        ? moved(`formation ${u.formation} has a vessel ${u.vessel.name} again (${vesselEntry(entry)})`)
        : UNCHANGED;
    }
    case 'vessel.created': {
      const vessel = await c.getVessel(u.environment, u.name).catch(gone);
      if (!vessel) return moved(`vessel ${u.name} is gone already`);
      if (u.uid && vessel.metadata.uid && vessel.metadata.uid !== u.uid)
        return moved(`vessel ${u.name} is a different vessel now (re-created)`);
      return isDeepStrictEqual(specOf(vessel.spec), specOf(u.spec))
        ? UNCHANGED
        : moved(`vessel ${u.name} now has another spec than the one created`);
    }
    case 'vessel.deleted': {
      const vessel = await c.getVessel(u.environment, u.name).catch(gone);
      return vessel ? moved(`a vessel named ${u.name} exists again`) : UNCHANGED;
    }
    case 'image.promotion': {
      // Every target is read before any write: one moved refuses them all.
      const now = await promotionMoved(ctx, u.targets.filter(writable));
      return now ? moved(now) : UNCHANGED;
    }
  }
}

/** A 404 read as "not there"; anything else goes on. */
function gone(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}

/** The parts of a Vessel spec a person set (region and template), for comparing reads. */
function specOf(spec: unknown): unknown {
  const s = (spec ?? {}) as { region?: unknown; template?: unknown };
  return { region: s.region, template: s.template };
}

function sameEntry(
  a: { region: string; override?: unknown },
  b: { region: string; override?: unknown },
): boolean {
  return a.region === b.region && isDeepStrictEqual(a.override ?? null, b.override ?? null);
}

/** Thrown by `write` when the write's own guard found the target moved: nothing was written. */
export class InverseMovedError extends Error {
  constructor(readonly now: string) {
    super(`the target moved while rolling back: ${now}`);
  }
}

/** A failed JSON Patch `test` (the service answers 409/422 with a Status reason). */
function failedTest(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 409 || err.status === 422) && err.reason !== undefined;
}

/** Sets a Formation's template container back to `t.before`, refused (a failed `test`) when it no longer runs `t.after`. */
async function setFormationImage(ctx: OperationContext, t: PromotedTarget): Promise<void> {
  const formation = await ctx.client.getFormation(t.environment, t.name);
  const containers = formation.spec.template?.spec.containers ?? [];
  const index = containers.findIndex((x) => x.name === t.container);
  if (index < 0) throw new InverseMovedError(`${promotedWhere(t)} no longer has a container ${t.container}`);
  const path = `/spec/template/spec/containers/${index}`;
  await ctx.client.patchFormation(t.environment, t.name, [
    { op: 'test', path: `${path}/name`, value: t.container },
    { op: 'test', path: `${path}/image`, value: t.after },
    { op: 'replace', path: `${path}/image`, value: t.before },
  ]);
}

/** Writes the inverse, guarded by what the original change left; returns what was done in words. */
export async function write(ctx: OperationContext, u: Undo): Promise<string> {
  const c = ctx.client;
  const view = inverseView(u);
  try {
    switch (u.kind) {
      case 'scheduling': {
        const region = await c.getRegion(u.environment, u.region);
        const index = region.spec.types.findIndex((t) => t.name === u.type);
        if (index < 0) throw new InverseMovedError(`region ${u.region} no longer has a type ${u.type}`);
        await c.patchRegion(u.environment, u.region, [
          { op: 'test', path: `/spec/types/${index}/name`, value: u.type },
          { op: 'test', path: `/spec/types/${index}/template/scheduling`, value: u.after },
          { op: 'replace', path: `/spec/types/${index}/template/scheduling`, value: u.before },
        ]);
        break;
      }
      case 'fleet.scale':
        await c.setDistribution(
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
        break;
      case 'fleet.image':
        if (u.before === null) throw new InverseMovedError('the container had no image before');
        await c.setTemplateImage(
          { kind: u.fleet, env: u.environment, name: u.name, container: u.container },
          u.after,
          u.before,
          { maxAttempts: 1 },
        );
        break;
      case 'vessel.added':
        await c.removeVesselFromFormation(u.environment, u.formation, u.vessel.name);
        break;
      case 'vessel.removed':
        await c.appendVesselToFormation(u.environment, u.formation, u.vessel);
        break;
      case 'vessel.created':
        await c.deleteVessel(u.environment, u.name);
        break;
      case 'vessel.deleted':
        await c.createVessel(u.environment, u.vessel);
        break;
      case 'image.promotion':
        // One guarded image write per target: a fleet's as armada/armadaset image writes it, a
        // Formation's template container by JSON Patch with a `test` of the promoted copy.
        for (const t of u.targets.filter(writable)) {
          try {
            if (isFleetTarget(t)) {
              await c.setTemplateImage(
                { kind: t.fleet, env: t.environment, name: t.name, container: t.container },
                t.after,
                t.before,
                { maxAttempts: 1 },
              );
            } else {
              await setFormationImage(ctx, t);
            }
          } catch (err) {
            if (err instanceof ArmadaMovedError)
              throw new InverseMovedError(
                `container ${t.container} of ${promotedWhere(t)} is now ${err.actual}`,
              );
            throw err;
          }
        }
        break;
    }
  } catch (err) {
    if (err instanceof ArmadaMovedError) throw new InverseMovedError(`${view.subject} is now ${err.actual}`);
    if (
      err instanceof ContainerNotInTemplateError ||
      err instanceof RegionTypeNotInDistributionError ||
      err instanceof RegionNotInArmadaSetError ||
      err instanceof VesselNotInFormationError ||
      err instanceof DuplicateVesselError
    ) {
      throw new InverseMovedError(`${view.subject} changed while rolling back`);
    }
    if (failedTest(err)) throw new InverseMovedError(`${view.subject} changed while rolling back`);
    if (u.kind === 'vessel.deleted' && err instanceof ApiError && err.status === 409) {
      throw new InverseMovedError(`a vessel named ${u.name} exists again`);
    }
    throw err;
  }
  return view.summary;
}

/** After an interruption: does the target show the state before the original change? Reads only. */
export async function restored(ctx: OperationContext, u: Undo): Promise<boolean> {
  const c = ctx.client;
  switch (u.kind) {
    case 'scheduling': {
      const region = await c.getRegion(u.environment, u.region).catch(gone);
      const type = region?.spec.types.find((t) => t.name === u.type);
      return type !== undefined && schedulingOf(type) === u.before;
    }
    case 'fleet.scale':
    case 'fleet.image': {
      const back = await guard(ctx, { ...u, after: u.before } as Undo);
      return back.kind === 'unchanged';
    }
    case 'vessel.added':
      return (await guard(ctx, { ...u, kind: 'vessel.removed', index: 0 })).kind === 'unchanged';
    case 'vessel.removed': {
      const formation = await c.getFormation(u.environment, u.formation).catch(gone);
      return formation?.spec.vessels.some((v) => v.name === u.vessel.name) ?? false;
    }
    case 'vessel.created':
      return (await c.getVessel(u.environment, u.name).catch(gone)) === undefined;
    case 'vessel.deleted': {
      const vessel = await c.getVessel(u.environment, u.name).catch(gone);
      return vessel !== undefined && vessel.metadata.uid !== u.uid;
    }
    case 'image.promotion': {
      const back = u.targets.filter(writable).map((t) => ({ ...t, after: t.before }));
      return back.length > 0 && (await promotionMoved(ctx, back)) === undefined;
    }
  }
}

/** One key per thing an undo restores: two changes with the same key touched the same target. */
export function subjectKey(u: Undo): string {
  switch (u.kind) {
    case 'scheduling':
      return ['scheduling', u.environment, u.region, u.type].join('|');
    case 'fleet.scale':
      return ['scale', u.fleet, u.environment, u.name, u.region ?? '', u.type].join('|');
    case 'fleet.image':
      return ['image', u.fleet, u.environment, u.name, u.container].join('|');
    case 'vessel.added':
    case 'vessel.removed':
      return ['formation', u.environment, u.formation, u.vessel.name].join('|');
    case 'vessel.created':
    case 'vessel.deleted':
      return ['vessel', u.environment, u.name].join('|');
    case 'image.promotion':
      // Keyed like an image change of its first fleet: a later image change there is named.
      return u.targets[0] ? promotedKey(u.targets[0]) : ['promotion', u.branch, u.promoted].join('|');
  }
}
