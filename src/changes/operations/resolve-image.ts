/**
 * Users name images as `image:tag`; the API wants the internal object name
 * (seed rule 5). Accept either and resolve to the internal name, with messages
 * that say where we looked.
 */

import type { Image } from '../../api-shapes/resources.js';
import { UserError } from '../../errors/user-error.js';
import type { GameFabricClient } from '../../gamefabric/client.js';
import { ImageNotFoundError } from '../../gamefabric/errors.js';

/** Resolves `image:tag` or an internal image name in `branch` to the Image. */
export async function resolveImage(
  client: GameFabricClient,
  branch: string,
  ref: string,
  field: string,
): Promise<Image> {
  const colon = ref.lastIndexOf(':');
  if (colon > 0) {
    const image = ref.slice(0, colon);
    const tag = ref.slice(colon + 1);
    try {
      return await client.findImage(branch, image, tag);
    } catch (err) {
      if (err instanceof ImageNotFoundError) {
        throw new UserError(`${field}: no image ${image}:${tag} in branch ${branch}`, 'not_found');
      }
      throw err;
    }
  }
  const all = await client.listImages(branch);
  const found = all.find((i) => i.metadata.name === ref);
  if (!found) {
    throw new UserError(
      `${field}: no image named "${ref}" in branch ${branch}; give image:tag (e.g. game-server:1.2.0) or an internal name from the image list of ${branch}`,
      'not_found',
    );
  }
  return found;
}

/** "game-server:1.2.0 (img-1a2b3c4d)" */
export function imageLabel(image: Image): string {
  return `${image.spec.image}:${image.spec.tag} (${image.metadata.name})`;
}
