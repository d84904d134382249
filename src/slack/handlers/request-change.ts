/**
 * A mutating command or modal submission: ask the engine for a Change (it
 * validates, authorizes and plans), then post the preview in the channel for
 * everyone to see, with the buttons that drive it.
 */
import type { Change } from '../../changes/change.js';
import type { GuardAsk } from '../../changes/guard-choice.js';
import type { ChangeInput } from '../../changes/requests/index.js';
import type { Actor, RequestCtx } from './context.js';
import { postFailure } from './post-errors.js';

/** Requests and posts a change; throws UserError (for the caller to report) when it cannot be requested or shown. */
export async function requestChange(
  ctx: RequestCtx,
  actor: Actor,
  asked: ChangeInput,
  releaseId?: string,
  /** `--break-glass <reason>` and `--at <time>` (or a form's When field), issue 41; `--guard <duration>` or `--no-guard`, issue 42. */
  control: { breakGlass?: string; at?: string; guard?: GuardAsk } = {},
): Promise<Change> {
  const change = await ctx.engine.request({
    ...asked,
    ...control,
    requester: actor.user,
    origin: {
      workspace: actor.team,
      channel: actor.channel,
      ...(actor.threadTs ? { threadTs: actor.threadTs } : {}),
      ...(releaseId ? { releaseId } : {}),
    },
  });
  let posted: Change;
  try {
    // Its message's owner posts it, then asks the approvers the policy names in its thread.
    posted = await ctx.changeMessages.post(change);
  } catch (err) {
    // Without a message nobody can confirm it: withdraw it rather than leave it pending unseen.
    await ctx.engine
      .cancel({ changeId: change.id, user: actor.user, channel: actor.channel, team: actor.team })
      .catch((cancelErr) => ctx.logger.warn('could not withdraw an unposted change', { error: cancelErr }));
    throw postFailure(err, 'nobody could confirm the change; nothing was changed');
  }
  return posted;
}
