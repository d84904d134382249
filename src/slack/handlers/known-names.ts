/**
 * The API cannot list environments, so a "No environment `Dve`" from the
 * domain gets the configured ones here (HARBOR_ENVIRONMENTS): the closest
 * name and the whole list, so the user's next command can be right.
 */
import { NotFoundError, whatExists } from '../../changes/not-found.js';
import type { ErrorCtx } from './context.js';

/** `err` with the configured environments added when it says an environment is missing; else `err` itself. */
export function withKnownNames(ctx: Pick<ErrorCtx, 'environments'>, err: unknown): unknown {
  if (!(err instanceof NotFoundError)) return err;
  if (err.missing === 'environment') {
    return new NotFoundError(
      err.missing,
      err.missingName,
      `${err.message}${whatExists(err.missingName, ctx.environments, 'known environments')}`,
    );
  }
  return err;
}
