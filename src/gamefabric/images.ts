/**
 * Images and image promotion (container group, branch-scoped): seed endpoints
 * 1 and 2, and the promotion recipe of seed rule 4.
 */

import {
  API_VERSIONS,
  type Image,
  type ImagePromotion,
  ImagePromotionSchema,
  ImageSchema,
  listOf,
} from '../api-shapes/resources.js';
import { ApiError, GameFabricError, ImageNotFoundError } from './errors.js';
import { apiPath, type Requester } from './request.js';

interface ImageFilter {
  image?: string;
  tag?: string;
}

export interface PromoteImageInput {
  image: string;
  tag: string;
  sourceBranch: string;
  targetBranch: string;
  /** Caller-generated UUID; reusing it on a repeat makes the promotion idempotent. */
  promotionName: string;
}

interface PromotionResult {
  promotion: ImagePromotion;
  /** The service already had a promotion of this name (a repeat of ours): nothing new was done. */
  alreadyExisted: boolean;
}

const ImageListSchema = listOf(ImageSchema);

/** Escapes a fieldSelector value the Kubernetes way, so `,` `=` and `\` can not split the selector. */
export function escapeSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Images in `branch`, narrowed by the human-readable image name and/or tag (ANDed). */
export async function listImages(
  http: Requester,
  branch: string,
  filter: ImageFilter = {},
): Promise<Image[]> {
  const selector = [
    filter.image === undefined ? undefined : `spec.image=${escapeSelectorValue(filter.image)}`,
    filter.tag === undefined ? undefined : `spec.tag=${escapeSelectorValue(filter.tag)}`,
  ].filter((pair) => pair !== undefined);
  const list = await http.json(
    {
      method: 'GET',
      path: apiPath`/api/container/v1/images/scopes/${branch}`,
      query: { fieldSelector: selector.length > 0 ? selector.join(',') : undefined },
      retry: 'idempotent',
    },
    ImageListSchema,
    'Image list',
  );
  return list.items;
}

/**
 * The image `image:tag` in `branch`; ImageNotFoundError when the lookup matches
 * nothing. Several Image objects may exist for one image:tag on the real
 * service; like the Terraform provider, take the newest by createdTimestamp.
 */
export async function findImage(http: Requester, branch: string, image: string, tag: string): Promise<Image> {
  const newest = newestImage(await listImages(http, branch, { image, tag }));
  if (!newest) throw new ImageNotFoundError(image, tag, branch);
  return newest;
}

/** The most recently created image (by metadata.createdTimestamp); the first listed when none carries one. */
function newestImage(images: readonly Image[]): Image | undefined {
  let best: Image | undefined;
  let bestAt = Number.NEGATIVE_INFINITY;
  for (const image of images) {
    const at = Date.parse(image.metadata.createdTimestamp ?? '');
    const when = Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
    if (best === undefined || when > bestAt) {
      best = image;
      bestAt = when;
    }
  }
  return best;
}

/**
 * Creates an ImagePromotion in its target branch (`metadata.branch`). Retried
 * like a read, because its caller-chosen name makes a repeat harmless: a 409
 * for that name means an earlier attempt (ours) already created it.
 */
export async function createImagePromotion(
  http: Requester,
  promotion: ImagePromotion,
): Promise<PromotionResult> {
  const target = promotion.metadata.branch;
  if (!target) throw new GameFabricError('ImagePromotion needs metadata.branch (the target branch)');
  const body: ImagePromotion = {
    ...promotion,
    apiVersion: promotion.apiVersion || API_VERSIONS.container,
    kind: 'ImagePromotion',
  };
  try {
    const created = await http.json(
      {
        method: 'POST',
        path: apiPath`/api/container/v1/imagepromotions/scopes/${target}`,
        body: { json: body },
        retry: 'idempotent',
      },
      ImagePromotionSchema,
      'ImagePromotion',
    );
    return { promotion: created, alreadyExisted: false };
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    // "Already exists" is success only when a read shows that promotion, ours: same source and image.
    const existing = await getImagePromotion(http, target, promotion.metadata.name).catch(() => undefined);
    if (
      existing?.spec.imageName === promotion.spec.imageName &&
      existing.spec.branch === promotion.spec.branch
    ) {
      return { promotion: existing, alreadyExisted: true };
    }
    throw error;
  }
}

/** Seed rule 4: look up the internal name in the source branch, then promote it into the target branch. */
export async function promoteImage(
  http: Requester,
  input: PromoteImageInput,
): Promise<PromotionResult & { imageName: string }> {
  const image = await findImage(http, input.sourceBranch, input.image, input.tag);
  const imageName = image.metadata.name;
  const result = await createImagePromotion(http, {
    apiVersion: API_VERSIONS.container,
    kind: 'ImagePromotion',
    metadata: { name: input.promotionName, branch: input.targetBranch },
    spec: { branch: input.sourceBranch, imageName },
  });
  return { imageName, ...result };
}

/**
 * A 409 whose Status body says AlreadyExists. A bare 409 (a gateway's plain
 * text) says nothing about our promotion and is passed on like any failure.
 */
function isAlreadyExists(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.reason === 'AlreadyExists';
}

/** One ImagePromotion by name in its target branch (Kubernetes-style read); ApiError 404 when absent. */
export async function getImagePromotion(
  http: Requester,
  branch: string,
  name: string,
): Promise<ImagePromotion> {
  return http.json(
    {
      method: 'GET',
      path: apiPath`/api/container/v1/imagepromotions/scopes/${branch}/${name}`,
      retry: 'idempotent',
    },
    ImagePromotionSchema,
    'ImagePromotion',
  );
}
