/**
 * What a promotion's rollback needs (undo.ts): the image each ImageUpdater
 * target (Armada or ArmadaSet container) ran before the promotion, and the
 * promoted copy it rolls out to. Read just before the promotion is created,
 * since the ImageUpdater switches the image by itself once the copy lands.
 */
import type { FleetKind } from '../../gamefabric/client.js';
import { readFleet } from '../fleet-read.js';
import type { OperationContext } from '../operation.js';
import type { PromoteImageRequest } from '../requests/images.js';
import type { PromotedTarget, Undo } from '../rollback/undo.js';
import type { Rollout } from './promotion-rollouts.js';

/** A target's container of the promoted image, as it ran before the promotion. */
export type RunsBefore = Omit<PromotedTarget, 'after' | 'afterLabel'>;

/** Each Armada/ArmadaSet container in `branch` running an image named `image`, from the targets `rollouts` name. */
export async function fleetImagesBefore(
  ctx: OperationContext,
  branch: string,
  image: string,
  rollouts: readonly Rollout[] | undefined,
): Promise<RunsBefore[]> {
  const fleets = (rollouts ?? []).filter((r) => r.kind === 'Armada' || r.kind === 'ArmadaSet');
  if (fleets.length === 0) return [];
  // A read that fails leaves that target out of the undo: it must never stop the promotion itself.
  const images = new Map(
    (await ctx.client.listImages(branch).catch(() => [])).map((i) => [i.metadata.name, i.spec]),
  );
  const out: RunsBefore[] = [];
  for (const r of fleets) {
    const fleet = await readFleet(ctx.client, r.kind as FleetKind, r.environment, r.name).catch(
      () => undefined,
    );
    for (const c of fleet?.spec.template.spec.containers ?? []) {
      const spec = c.branch === branch && c.image ? images.get(c.image) : undefined;
      if (!c.image || spec?.image !== image) continue;
      out.push({
        fleet: r.kind as FleetKind,
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
export function promotionUndo(r: PromoteImageRequest, runs: readonly RunsBefore[], landed?: string): Undo {
  const promoted = `${r.image}:${r.tag}`;
  const base = { kind: 'image.promotion' as const, branch: r.targetBranch, promoted };
  if (runs.length === 0) {
    return {
      ...base,
      targets: [],
      nothing: `no ImageUpdater rolled ${r.image} out from ${r.targetBranch} to an Armada or ArmadaSet, so the promotion set no fleet image and there is nothing to set back (the promoted image stays in the branch)`,
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
  return targets.length > 0
    ? { ...base, targets }
    : {
        ...base,
        targets: [],
        nothing: `every ImageUpdater target already ran ${promoted}, so the promotion set no fleet image and there is nothing to set back`,
      };
}
