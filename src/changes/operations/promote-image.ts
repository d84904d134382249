/**
 * Promote `image:tag` from one branch to another (seed rule 4). The promotion's
 * name is the change's applyToken, a UUID fixed at request time, so a retry or
 * a recovery after a crash can never promote twice.
 */

import type { GameFabricClient } from '../../gamefabric/client.js';
import { ImageNotFoundError, isNotFound } from '../../gamefabric/errors.js';
import { UserError, WorldMovedError } from '../errors.js';
import { missingBranch } from '../not-found.js';
import type { OperationModule, Preview } from '../operation.js';
import { fieldsOf } from '../validate.js';

export interface PromoteImageRequest {
  image: string;
  tag: string;
  sourceBranch: string;
  targetBranch: string;
}

export const promoteImage: OperationModule<PromoteImageRequest> = {
  id: 'image.promote',

  parse(input) {
    const f = fieldsOf(input);
    const request = {
      image: f.imageName('image'),
      tag: f.tag('tag'),
      sourceBranch: f.name('sourceBranch', 'branch', 'dev'),
      targetBranch: f.name('targetBranch', 'branch', 'prod'),
    };
    if (request.sourceBranch && request.sourceBranch === request.targetBranch) {
      f.problem('targetBranch', `must differ from the source branch (both are "${request.sourceBranch}")`);
    }
    f.done();
    return request as PromoteImageRequest;
  },

  target: (r) => ({ branch: r.targetBranch, sourceBranch: r.sourceBranch }),

  async plan(ctx, r) {
    const source = await findOrExplain(ctx.client, r.sourceBranch, r.image, r.tag);
    const existing = await ctx.client
      .listImages(r.targetBranch, { image: r.image, tag: r.tag })
      .catch((err) => {
        if (isNotFound(err)) throw missingBranch(r.targetBranch);
        throw err;
      });
    const preview: Preview = {
      summary: `Promote ${r.image}:${r.tag} from ${r.sourceBranch} to ${r.targetBranch}`,
      lines: [
        { label: 'Image', value: `${r.image}:${r.tag}` },
        { label: 'From branch', value: r.sourceBranch },
        { label: 'To branch', value: r.targetBranch },
        {
          label: `Already in ${r.targetBranch}`,
          value: existing[0] ? 'yes; it will be replaced by this copy' : 'no',
        },
        { label: 'Internal image name', value: source.metadata.name, secondary: true },
        ...(existing[0]
          ? [
              {
                label: `Internal name in ${r.targetBranch}`,
                value: existing[0].metadata.name,
                secondary: true,
              },
            ]
          : []),
      ],
      notes: [],
      destructive: false,
      facts: { imageName: source.metadata.name, targetHad: existing[0]?.metadata.name ?? null },
    };
    return preview;
  },

  async apply(ctx, { request: r, preview, applyToken }) {
    const source = await findOrExplain(ctx.client, r.sourceBranch, r.image, r.tag, 'since the preview');
    if (source.metadata.name !== preview.facts.imageName) {
      throw new WorldMovedError(
        `${r.image}:${r.tag} in ${r.sourceBranch} changed since the preview (internal name was ${String(preview.facts.imageName)}, now ${source.metadata.name}); nothing was promoted. Request the promotion again to see the new preview.`,
      );
    }
    const { promotion, alreadyExisted } = await ctx.client.createImagePromotion({
      apiVersion: 'container/v1',
      kind: 'ImagePromotion',
      metadata: { name: applyToken, branch: r.targetBranch },
      spec: { branch: r.sourceBranch, imageName: source.metadata.name },
    });
    return {
      summary: `Promoted ${r.image}:${r.tag} from ${r.sourceBranch} to ${r.targetBranch}`,
      lines: [
        { label: 'Image', value: `${r.image}:${r.tag}` },
        { label: 'Now in branch', value: r.targetBranch },
        { label: 'Promotion', value: promotion.metadata.name, secondary: true },
        { label: 'Internal image name', value: source.metadata.name, secondary: true },
      ],
      facts: { promotionName: promotion.metadata.name, imageName: source.metadata.name, alreadyExisted },
    };
  },

  async verify(ctx, { request: r, applyToken }) {
    try {
      await ctx.client.getImagePromotion(r.targetBranch, applyToken);
      return 'applied';
    } catch (err) {
      if (isNotFound(err)) return 'not_applied';
      throw err;
    }
  },
};

async function findOrExplain(
  client: GameFabricClient,
  branch: string,
  image: string,
  tag: string,
  when = '',
) {
  try {
    return await client.findImage(branch, image, tag);
  } catch (err) {
    if (err instanceof ImageNotFoundError) {
      const others = await client.listImages(branch, { image }).catch(() => []);
      const tags = others
        .map((i) => i.spec.tag)
        .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))
        .slice(0, 10);
      const hint = tags.length > 0 ? ` Tags of ${image} in ${branch}: ${tags.join(', ')}.` : '';
      if (when) {
        throw new WorldMovedError(
          `${image}:${tag} is no longer in branch ${branch} (it was there ${when}); nothing was promoted.${hint}`,
        );
      }
      throw new UserError(`No image ${image}:${tag} in branch ${branch}.${hint}`, 'not_found');
    }
    if (isNotFound(err)) throw missingBranch(branch);
    throw err;
  }
}
