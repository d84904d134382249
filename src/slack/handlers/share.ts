/**
 * "Share in channel": a private read answer posted publicly, attributed to
 * the person who shared it. Slack does not send an ephemeral message's
 * content back with the click, so the button carries the command text and
 * the read runs again (authorized for the sharer, as when they asked).
 * A double click sends two clicks on the same private message; a lease on
 * that message lets one of them post (on any replica). A post that fails
 * gives the lease back, so the user can share again once the cause is fixed.
 */
import { UserError } from '../../errors/user-error.js';
import { parseCommand } from '../grammar/parse.js';
import type { SlackMessage } from '../render/message.js';
import { sharedMessage, sharedNotice } from '../render/share.js';
import type { Actor, BotContext, PrivateReply, RequestCtx } from './context.js';
import { notInChannel } from './post-errors.js';
import { answerRead, shareableRead } from './reads.js';

/** As long as the private answer's response_url can still replace it (30 minutes). */
const SHARE_CLAIM_MS = 30 * 60_000;

/** The click: which private answer it came from, and a name for this one click. */
interface ShareClick {
  /** The ts of the private message carrying the button (Slack's `container.message_ts`). */
  messageTs: string;
  /** Unique per click (Slack's `action_ts` with the trigger id). */
  clickId: string;
}

/** The outcome, for metrics: posted, or a repeated click that posted nothing. */
type ShareOutcome = 'shared' | 'duplicate';

/**
 * Posts the answer to `commandText` in the actor's channel; `replaceOriginal`
 * then turns the private answer into a note that it was shared. Throws
 * UserError (reported privately) when it cannot be shared.
 */
export async function shareRead(
  ctx: RequestCtx & Pick<BotContext, 'policy'>,
  commandText: string,
  actor: Actor,
  click: ShareClick,
  reply: PrivateReply,
  replaceOriginal: (message: SlackMessage) => Promise<void>,
): Promise<ShareOutcome> {
  const parsed = parseCommand(commandText, ctx.commandName);
  const read = parsed.ok ? shareableRead(parsed.command) : undefined;
  if (!read) {
    throw new UserError(
      'This answer can no longer be shared: its button does not name a read command. Run the command again and share the new answer.',
    );
  }
  const key = `share:${actor.team}:${actor.channel}:${click.messageTs}`;
  if (!(await ctx.store.acquireLease(key, click.clickId, SHARE_CLAIM_MS, ctx.clock.now()))) {
    await reply({
      text: 'You already shared this answer in the channel.',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'You already shared this answer in the channel.' } },
      ],
    });
    return 'duplicate';
  }
  let answer: SlackMessage;
  try {
    answer = await answerRead(ctx, read, actor);
    const shared = sharedMessage(answer, actor.user, ctx.commandName, commandText);
    await ctx.slack.chat.postMessage({ channel: actor.channel, text: shared.text, blocks: shared.blocks });
  } catch (err) {
    // Nothing was posted: the next click may try again.
    await ctx.store
      .releaseLease(key, click.clickId)
      .catch((releaseErr: unknown) =>
        ctx.logger.warn('could not release a share claim', { error: releaseErr }),
      );
    if (notInChannel(err)) {
      throw new UserError(
        `I cannot post in <#${actor.channel}>: I am not a member of it, so nothing was shared. Invite me with \`/invite @Harbormaster\`, then press *Share in channel* again.`,
        'slack',
      );
    }
    throw err;
  }
  await replaceOriginal(sharedNotice(answer, actor.channel)).catch((err: unknown) =>
    // The share is done; a private answer that keeps its button only invites a second, refused click.
    ctx.logger.warn('could not mark the private answer as shared', { error: err }),
  );
  return 'shared';
}
