/**
 * Whether a promotion has landed: the API answers 201 when it accepts an
 * ImagePromotion, but documents nothing about when the copy shows in the
 * target branch. We only call it promoted once the target branch lists it.
 */
import type { Image } from '../../../api-shapes/resources.js';
import type { OperationContext } from '../../operation.js';

/** How long apply waits for the copy to show before answering "requested, not yet visible". */
const PROMOTION_VISIBLE_WAIT_MS = 10_000;

interface Wanted {
  image: string;
  tag: string;
  targetBranch: string;
}

/**
 * The target-branch image that proves the promotion of `source`, if any: one
 * with the source's digest when it has one; otherwise any image:tag that was
 * not there before (`targetHad` is the internal name seen at preview time).
 */
export function promotionLanded(
  targetImages: readonly Image[],
  source: Image,
  targetHad: unknown,
): Image | undefined {
  const digest = source.spec.digest;
  if (digest) return targetImages.find((i) => i.spec.digest === digest);
  return targetImages.find((i) => i.metadata.name !== targetHad);
}

/** Polls the target branch until the copy shows or the bounded wait ends (undefined then). */
export async function waitForPromotion(
  ctx: OperationContext,
  r: Wanted,
  source: Image,
  targetHad: unknown,
): Promise<Image | undefined> {
  const deadline = ctx.clock.now() + Math.min(PROMOTION_VISIBLE_WAIT_MS, ctx.follow.timeoutMs);
  const pollMs = Math.max(1, Math.min(ctx.follow.pollMs, PROMOTION_VISIBLE_WAIT_MS));
  for (;;) {
    // A failed read proves nothing either way: keep trying until the deadline.
    const images = await ctx.client
      .listImages(r.targetBranch, { image: r.image, tag: r.tag })
      .catch((err: unknown) => {
        ctx.logger.warn('promotion visibility check failed', { error: String(err) });
        return [];
      });
    const landed = promotionLanded(images, source, targetHad);
    if (landed || ctx.clock.now() + pollMs > deadline) return landed;
    await ctx.clock.sleep(pollMs, ctx.signal);
  }
}
