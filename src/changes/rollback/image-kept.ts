/**
 * Whether the image a rollback writes back is still in its branch. A branch's
 * Image Retention Policy deletes images older than Keep Days (default 14, 30
 * for Production) down to Keep Count tags (default 10), and people delete
 * images too (docs `getting-started/pushing-container-images.md` "Image
 * Retention Policy", `deleting-container-images.md`): the build a fleet ran a
 * week ago may be gone, and a template naming it could not start a game
 * server. So the rollback of an image change or a promotion asks the branch
 * at its preview and again at its apply, and refuses, naming the image and the
 * branch, when it is gone.
 */
import { isNotFound } from '../../gamefabric/errors.js';
import { readFleet } from '../fleet-read.js';
import { splitRef } from '../image-change.js';
import type { OperationContext } from '../operation.js';
import type { Undo } from './undo.js';

/** One image an inverse writes back: its internal name, `image:tag` as people read it, and its branch. */
interface Wanted {
  internal: string;
  label: string;
  branch: string;
}

/** The images `u` writes back, each with its branch; none for other inverses. */
async function wanted(ctx: OperationContext, u: Undo): Promise<Wanted[]> {
  if (u.kind === 'image.promotion') {
    // The promotion's targets were recorded for containers of its target branch only.
    return u.targets.map((t) => ({ internal: t.before, label: t.beforeLabel, branch: u.branch }));
  }
  if (u.kind !== 'fleet.image' || u.before === null) return [];
  const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name).catch(() => undefined);
  const branch = fleet?.spec.template.spec.containers.find((c) => c.name === u.container)?.branch;
  return branch ? [{ internal: u.before, label: u.beforeLabel, branch }] : [];
}

/**
 * The first image `u` writes back that its branch no longer lists, in words
 * (a clause for "Cannot roll back change X: …"); undefined when every one is there.
 */
export async function imageGone(ctx: OperationContext, u: Undo): Promise<string | undefined> {
  const seen = new Set<string>();
  for (const w of await wanted(ctx, u)) {
    const key = `${w.branch}/${w.internal}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const ref = splitRef(w.label);
    const images = await ctx.client
      .listImages(w.branch, ref ? { image: ref.image, tag: ref.tag } : undefined)
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    if (!images) return `branch ${w.branch}, which held ${w.label}, no longer exists`;
    if (images.some((i) => i.metadata.name === w.internal)) continue;
    const other = ref ? images.find((i) => i.spec.image === ref.image && i.spec.tag === ref.tag) : undefined;
    return `${w.label} (internal name ${w.internal}) is no longer in branch ${w.branch} (deleted by the branch's image retention policy or by hand), so no game server could start from it${
      other ? `; ${w.label} is in ${w.branch} under another internal name, ${other.metadata.name}` : ''
    }`;
  }
  return undefined;
}
