/**
 * Images per branch (list with fieldSelector) and ImagePromotions, which copy
 * an image into the target branch under a new internal name.
 */
import { API_VERSIONS, type Image, type ImagePromotion } from '../api-shapes/resources.js';
import { readObjectBody } from './http-utils/body.js';
import { alreadyExists, notFound } from './http-utils/status.js';
import { imageDigest, internalImageName } from './image-names.js';
import { deepClone, sortedByName } from './json.js';
import { matches, parseFieldSelector } from './selectors.js';
import type { Handler } from './services.js';
import type { SimStore } from './store.js';
import { checkEnvelope, Problems, requiredString, requireObjectBody } from './validation.js';

const IMAGE_FIELDS: Record<string, (image: Image) => string | undefined> = {
  'metadata.name': (i) => i.metadata.name,
  'spec.image': (i) => i.spec.image,
  'spec.tag': (i) => i.spec.tag,
};

/** An Image object for `image:tag` in `branch`, under its stable internal name. */
export function makeImage(
  branch: string,
  image: string,
  tag: string,
  registry = 'registry.demo.local',
): Image {
  return {
    apiVersion: API_VERSIONS.container,
    kind: 'Image',
    metadata: { name: internalImageName(branch, image, tag), branch },
    spec: { image, tag, digest: imageDigest(image, tag), registry },
  };
}

/**
 * Stores an image. By default it replaces any other object with the same
 * image:tag so each stays one object; with `keepOthers` (data files, real
 * shapes) several objects may share one image:tag, as on the real service.
 */
export function putImage(store: SimStore, branch: string, image: Image, keepOthers = false): void {
  const images = store.branch(branch);
  for (const [name, existing] of images) {
    if (keepOthers) continue;
    if (existing.spec.image === image.spec.image && existing.spec.tag === image.spec.tag) images.delete(name);
  }
  image.metadata.revision = store.nextRevision();
  images.set(image.metadata.name, image);
}

/** GET /api/container/v1/images/scopes/{branch} */
export const listImages: Handler = (ctx, { branch = '' }, svc) => {
  const images = svc.store.branch(branch);
  const selector = parseFieldSelector(ctx.query.fieldSelector, Object.keys(IMAGE_FIELDS));
  const items = sortedByName(images.values()).filter((image) =>
    matches(selector, (key) => IMAGE_FIELDS[key]?.(image)),
  );
  ctx.json(200, { apiVersion: API_VERSIONS.container, kind: 'ImageList', items: deepClone(items) });
};

/** GET /api/container/v1/imagepromotions/scopes/{branch} */
export const listPromotions: Handler = (ctx, { branch = '' }, svc) => {
  const items = sortedByName(svc.store.branchPromotions(branch).values());
  ctx.json(200, { apiVersion: API_VERSIONS.container, kind: 'ImagePromotionList', items: deepClone(items) });
};

/** GET /api/container/v1/imagepromotions/scopes/{branch}/{name} */
export const getPromotion: Handler = (ctx, { branch = '', name = '' }, svc) => {
  const promotion = svc.store.branchPromotions(branch).get(name);
  if (!promotion) throw notFound('ImagePromotion', name, `branch "${branch}"`);
  ctx.json(200, promotion);
};

/** POST /api/container/v1/imagepromotions/scopes/{branch}: validate, refuse a reused name, copy the image. */
export const createPromotion: Handler = async (ctx, { branch = '' }, svc) => {
  const { store } = svc;
  const promotions = store.branchPromotions(branch);
  const body = requireObjectBody(await readObjectBody(ctx.req));
  const p = new Problems();
  const { name, metadata, spec } = checkEnvelope(p, body, {
    kind: 'ImagePromotion',
    apiVersions: [API_VERSIONS.container],
  });
  const target = requiredString(p, metadata, 'branch', 'metadata.branch');
  if (target !== undefined && target !== branch) {
    p.add(
      'metadata.branch',
      `Invalid value: "${target}": must equal the target branch in the path ("${branch}")`,
    );
  }
  const source = requiredString(p, spec, 'branch', 'spec.branch');
  const imageName = requiredString(p, spec, 'imageName', 'spec.imageName');
  p.throwIfAny('ImagePromotion', name);
  const promotionName = name as string;

  // Checked before the source so a retried promotion (same caller UUID) is recognisably "already done".
  if (promotions.has(promotionName)) throw alreadyExists('ImagePromotion', promotionName);
  const sourceImage = store.branch(source as string).get(imageName as string);
  if (!sourceImage) throw notFound('image', imageName as string, `branch "${source}"`);

  const copy = deepClone(sourceImage);
  const stableName = internalImageName(branch, copy.spec.image, copy.spec.tag);
  // The real service gives each copy a fresh internal name and keeps older
  // objects for the same image:tag; the seed-shaped demo keeps one object.
  const realShapes = svc.settings.realShapes;
  copy.metadata = {
    ...copy.metadata,
    name: realShapes ? `${stableName}-${store.newUid().slice(0, 5)}` : stableName,
    branch,
    uid: store.newUid(),
    createdTimestamp: new Date(svc.clock.now()).toISOString(),
  };
  putImage(store, branch, copy, realShapes);

  const promotion = deepClone(body) as ImagePromotion;
  promotion.metadata.uid = store.newUid();
  promotion.metadata.revision = store.nextRevision();
  promotion.status = { state: 'Succeeded', imageName: copy.metadata.name };
  promotions.set(promotionName, promotion);
  svc.logger.info('image promoted', {
    from: source,
    to: branch,
    image: `${copy.spec.image}:${copy.spec.tag}`,
  });
  ctx.json(201, promotion);
};
