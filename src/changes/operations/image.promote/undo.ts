/**
 * What a promotion's rollback needs (restore.ts): the image each ImageUpdater
 * target (an Armada, ArmadaSet, Formation or Vessel template container; the
 * provider's ImageUpdater targets all four) ran before the promotion, and the
 * promoted copy it rolls out to. Read just before the promotion is created,
 * since the ImageUpdater switches the image by itself once the copy lands. A
 * target that cannot be read is recorded by name, so its rollback names it.
 */
import type { Container } from '../../../api-shapes/resources.js';
import type { FleetKind } from '../../../gamefabric/client.js';
import { readFleet } from '../../fleet-read.js';
import type { OperationContext } from '../../operation.js';
import type { PromoteImageRequest } from '../../requests/images.js';
import type { Rollout } from './rollouts.js';

/** What an ImageUpdater may target (its `targetRef.kind`): a fleet, a Formation or a Vessel. */
export type PromotedKind = FleetKind | 'Formation' | 'Vessel';

/** One template container an image promotion rolled out through an ImageUpdater. */
export interface PromotedTarget {
  /** The target's kind (named `fleet` since undos stored before Formations and Vessels were recorded). */
  fleet: PromotedKind;
  environment: string;
  name: string;
  container: string;
  /** The ImageUpdater that rolls it out. */
  updater: string;
  /** Internal image names: what it ran before the promotion, and the promoted copy. */
  before: string;
  after: string;
  /** `image:tag` as people read them. */
  beforeLabel: string;
  afterLabel: string;
}

/** An ImageUpdater target a promotion's undo could not record (read failed): named by its rollback. */
export interface UnrecordedTarget {
  kind: string;
  environment: string;
  name: string;
  updater: string;
  why: string;
}

/** What a promotion recorded when it applied (its undo), and the request its restore (restore.ts) sets back. */
export interface Promotion {
  /** The branch the image was promoted into, and `image:tag`. */
  branch: string;
  promoted: string;
  targets: PromotedTarget[];
  /** Why there is nothing to set back (no ImageUpdater target): Roll back is then not offered. */
  nothing?: string;
  /** Targets of those ImageUpdaters whose image before the promotion could not be recorded, and why: named, not set back. */
  unrecorded?: UnrecordedTarget[];
}

/** A target's container of the promoted image, as it ran before the promotion. */
export type RunsBefore = Omit<PromotedTarget, 'after' | 'afterLabel'>;

/** What ran before the promotion: each container recorded, and each target that could not be read. */
export interface ImagesBefore {
  runs: RunsBefore[];
  unrecorded: UnrecordedTarget[];
}

const KINDS: readonly string[] = ['Armada', 'ArmadaSet', 'Formation', 'Vessel'];

/** The template containers of an ImageUpdater's target; undefined when it cannot be read. */
async function containersOf(ctx: OperationContext, r: Rollout): Promise<Container[] | undefined> {
  const c = ctx.client;
  // A read that fails leaves that target unrecorded: it must never stop the promotion itself.
  const none = () => undefined;
  if (r.kind === 'Formation') {
    const formation = await c.getFormation(r.environment, r.name).catch(none);
    return formation ? (formation.spec.template?.spec.containers ?? []) : undefined;
  }
  if (r.kind === 'Vessel')
    return (await c.getVessel(r.environment, r.name).catch(none))?.spec.template.spec.containers;
  return (await readFleet(c, r.kind as FleetKind, r.environment, r.name).catch(none))?.spec.template.spec
    .containers;
}

/** Each container in `branch` running an image named `image`, of the targets `rollouts` name. */
export async function imagesBefore(
  ctx: OperationContext,
  branch: string,
  image: string,
  rollouts: readonly Rollout[] | undefined,
): Promise<ImagesBefore> {
  const targets = (rollouts ?? []).filter((r) => KINDS.includes(r.kind));
  const out: ImagesBefore = { runs: [], unrecorded: [] };
  if (targets.length === 0) return out;
  const listed = await ctx.client.listImages(branch).catch(() => undefined);
  const images = new Map((listed ?? []).map((i) => [i.metadata.name, i.spec]));
  for (const r of targets) {
    const containers = listed ? await containersOf(ctx, r) : undefined;
    if (!containers) {
      out.unrecorded.push({
        kind: r.kind,
        environment: r.environment,
        name: r.name,
        updater: r.updater,
        why: `its image before the promotion could not be read (${listed ? `the ${r.kind}` : `branch ${branch}`} did not answer), so the rollback does not know what to set back`,
      });
      continue;
    }
    for (const c of containers) {
      const spec = c.branch === branch && c.image ? images.get(c.image) : undefined;
      if (!c.image || spec?.image !== image) continue;
      out.runs.push({
        fleet: r.kind as PromotedKind,
        environment: r.environment,
        name: r.name,
        container: c.name,
        updater: r.updater,
        before: c.image,
        beforeLabel: `${spec.image}:${spec.tag}`,
      });
    }
  }
  return out;
}

/** The promotion's undo: the targets it rolls out to the landed copy, or why there is nothing to set back. */
export function promotionUndo(r: PromoteImageRequest, before: ImagesBefore, landed?: string): Promotion {
  const promoted = `${r.image}:${r.tag}`;
  const { runs, unrecorded } = before;
  const base = {
    branch: r.targetBranch,
    promoted,
    ...(unrecorded.length > 0 ? { unrecorded } : {}),
  };
  if (runs.length === 0) {
    return {
      ...base,
      targets: [],
      nothing:
        unrecorded.length > 0
          ? `the image its ImageUpdaters' targets ran before (${unrecorded.map((u) => `${u.kind} ${u.name} (${u.environment})`).join(', ')}) could not be read when it applied, so what to set back is not known (the promoted image stays in the branch)`
          : `no ImageUpdater rolled ${r.image} out from ${r.targetBranch} to an Armada, ArmadaSet, Formation or Vessel, so the promotion set no image and there is nothing to set back (the promoted image stays in the branch)`,
    };
  }
  if (!landed) {
    return {
      ...base,
      targets: [],
      nothing: `the promoted copy was not yet visible in ${r.targetBranch} when the promotion ended, so the image its ImageUpdaters rolled out is not known; set the fleets back one by one (armada image)`,
    };
  }
  const targets = runs
    .filter((t) => t.before !== landed)
    .map((t) => ({ ...t, after: landed, afterLabel: promoted }));
  const vessels = targets.filter((t) => t.fleet === 'Vessel');
  if (targets.length > 0 && vessels.length === targets.length) {
    return {
      ...base,
      targets,
      nothing: `its ImageUpdaters rolled out only Vessels (${vessels.map((t) => `${t.name} (${t.environment}), back to ${t.beforeLabel}`).join('; ')}), and Harbormaster does not write a Vessel's image: set them back in the GameFabric console`,
    };
  }
  return targets.length > 0
    ? { ...base, targets }
    : {
        ...base,
        targets: [],
        nothing: `every ImageUpdater target already ran ${promoted}, so the promotion set no image and there is nothing to set back`,
      };
}
