/**
 * People know images as `image:tag`; the API stores containers with the
 * image's internal object name (`img-e916423b`). This turns internal names
 * back into what people read, one image list per branch, so every answer can
 * lead with `game-server:1.2.0` and keep the internal name as detail.
 */
import type { GameFabricClient } from '../gamefabric/client.js';

/** A container as far as its image goes. */
interface ImageRef {
  branch?: string;
  image?: string;
}

/** internal image name -> `image:tag`, for the images of `containers`; a branch that cannot be read is skipped. */
export async function imageTags(
  client: Pick<GameFabricClient, 'listImages'>,
  containers: readonly ImageRef[],
): Promise<Map<string, string>> {
  const branches = [...new Set(containers.filter((c) => c.branch && c.image).map((c) => c.branch as string))];
  const tags = new Map<string, string>();
  await Promise.all(
    branches.map(async (branch) => {
      // A read answer must not fail because a branch went away: the internal name is shown instead.
      const images = await client.listImages(branch).catch(() => []);
      for (const i of images) tags.set(i.metadata.name, `${i.spec.image}:${i.spec.tag}`);
    }),
  );
  return tags;
}

/** `game-server:1.2.0` for an internal name known in `tags`, else the internal name itself (or `none`). */
export function tagOf(tags: ReadonlyMap<string, string>, internalName: string | undefined): string {
  if (!internalName) return 'none';
  return tags.get(internalName) ?? internalName;
}
