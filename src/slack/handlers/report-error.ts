/**
 * The one place an error in a handler turns into something the user sees:
 * UserErrors as written, API errors translated, anything else logged under an
 * id and the user told so. Never a stack trace, never silence.
 */

import { UserError } from '../../errors/user-error.js';
import { renderError } from '../render/errors.js';
import type { ErrorCtx, PrivateReply } from './context.js';
import { withKnownNames } from './known-names.js';

/**
 * Tells the user what went wrong (privately); never throws. Only faults count
 * in `harbor_errors_total` (which pages on-call): a UserError (a refusal, a
 * name that is not there, a button that is stale) is an answer, counted by
 * the caller under its kind.
 */
export async function reportError(
  ctx: ErrorCtx,
  reply: PrivateReply,
  err: unknown,
  where: string,
): Promise<void> {
  if (!(err instanceof UserError)) ctx.metrics.errors.inc({ where });
  try {
    await reply(renderError(withKnownNames(ctx, err), ctx.logger.child({ where }), await seeTs(ctx, err)));
  } catch (replyErr) {
    // The user cannot be reached (response_url expired, channel gone): the log is all we have.
    ctx.logger.error('could not tell the user about an error', { where, error: err, replyError: replyErr });
  }
}

/** Where the message of the change an error refers to is (Slack's table), for its link; undefined when unknown. */
async function seeTs(ctx: ErrorCtx, err: unknown): Promise<string | undefined> {
  if (!(err instanceof UserError) || !err.see) return undefined;
  const { changeId } = err.see;
  try {
    return (await ctx.store.changeMessages([changeId])).get(changeId)?.messageTs;
  } catch {
    return undefined;
  }
}
