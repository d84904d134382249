/**
 * The views the bot opened, remembered in the store so any replica can tell a
 * submission of one of them from a forged one: a signature proves a body came
 * through Slack's signing, not that the bot ever showed that form. Each
 * views.update the bot makes stores the view's new hash, and a submission
 * must carry the latest one: an old copy of a form (or one whose hash was
 * made up) counts for nothing.
 */
import type { ViewsUpdateArguments } from '@slack/web-api';
import { UserError } from '../../errors/user-error.js';
import type { ViewCtx } from './context.js';

/** How long an opened modal may be submitted; Slack keeps a modal open no longer than a working day. */
export const OPENED_VIEW_TTL_MS = 24 * 60 * 60_000;

/** Records a view Slack says the bot opened (views.open's answer). */
export async function rememberOpenedView(
  ctx: ViewCtx,
  view: { id?: string; hash?: string } | undefined,
): Promise<void> {
  if (!view?.id) return;
  await ctx.store.rememberView(view.id, view.hash ?? '', OPENED_VIEW_TTL_MS, ctx.clock.now());
}

/** Replaces an opened view's content (views.update) and stores the hash Slack gives it now. */
export async function updateOpenedView(ctx: ViewCtx, args: ViewsUpdateArguments): Promise<void> {
  const answer = await ctx.slack.views.update(args);
  await rememberOpenedView(ctx, answer.view);
}

/** Throws a UserError unless the bot opened `viewId` (within the last day) and `hash` is its latest. */
export async function assertOpenedView(ctx: ViewCtx, viewId: string, hash: string): Promise<void> {
  const stored = await ctx.store.openedViewHash(viewId, ctx.clock.now());
  // A view opened without a hash in Slack's answer (never seen from Slack) is judged on its id alone.
  if (stored !== undefined && (stored === '' || stored === hash)) return;
  throw new UserError(
    'That submission is not a form Harbormaster opened (or the form is more than a day old), so nothing was done. Open the form again with `/harbor`.',
    'refused',
  );
}

/**
 * Claims one submission of view `viewId` showing `hash`, on every replica at
 * once (the store decides): true the first time, false for the same
 * submission delivered again (Slack's retry, another replica, a replay). A
 * form the bot redraws gets a new hash, so its next submission is a new one.
 */
export function claimSubmission(
  ctx: Pick<ViewCtx, 'clock' | 'store'>,
  viewId: string,
  hash: string,
): Promise<boolean> {
  return ctx.store.rememberRequest(`submission:${viewId}:${hash}`, OPENED_VIEW_TTL_MS, ctx.clock.now());
}
