/**
 * Internal image object names. The real service names images opaquely; the
 * simulator derives them from branch/image/tag with a hash so they are stable
 * across restarts and docs and tests can rely on them.
 */
import { createHash } from 'node:crypto';

/** The internal name (`img-<8 hex>`) of `image:tag` in `branch`. */
export function internalImageName(branch: string, image: string, tag: string): string {
  return `img-${createHash('sha256').update(`${branch}/${image}:${tag}`).digest('hex').slice(0, 8)}`;
}

/** A stable fake digest for `image:tag`, the same in every branch (a promotion copies the bytes). */
export function imageDigest(image: string, tag: string): string {
  return `sha256:${createHash('sha256').update(`${image}:${tag}`).digest('hex')}`;
}
