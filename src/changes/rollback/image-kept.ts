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
import { splitRef } from '../image-change.js';
import type { OperationContext } from '../operation.js';
import type { ImageBack } from './restore.js';

/**
 * The first of the images a restore writes back (its `imagesBack`) that its
 * branch no longer lists, in words (a clause for "Cannot roll back change X:
 * …"); undefined when every one is there.
 */
export async function imageGone(
  ctx: OperationContext,
  wanted: readonly ImageBack[],
): Promise<string | undefined> {
  const seen = new Set<string>();
  for (const w of wanted) {
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
