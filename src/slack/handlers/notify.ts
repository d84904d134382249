/**
 * Telling people, in the change message's thread: a rewritten message
 * notifies nobody, a reply that mentions someone does. In a release thread
 * the final outcome is also broadcast to the channel, where the people who
 * follow the release read. Best effort: a reply Slack refuses is logged, and
 * never turns a done change into a reported failure.
 */
import type { Change, ClickOutcome } from '../../changes/change.js';
import type { SlackMessage } from '../render/message.js';
import { renderApprovalRequest, renderOutcomeNotice } from '../render/notices.js';
import type { BotContext } from './context.js';

const FINAL_KINDS: ReadonlySet<ClickOutcome['kind']> = new Set(['applied', 'failed', 'rejected']);

/** Tells the requester what `actor`'s click did to their change (not when they clicked it themselves). */
export async function notifyOutcome(
  ctx: Pick<BotContext, 'logger' | 'slack'>,
  outcome: ClickOutcome,
  actor: string,
): Promise<void> {
  const change = outcome.change;
  const final = FINAL_KINDS.has(outcome.kind);
  const inRelease = final && change.origin.releaseId !== undefined;
  // The requester who clicked sees the message change under their cursor; a release's readers do not.
  if (actor === change.requester && !inRelease) return;
  const message = renderOutcomeNotice(outcome, actor);
  if (message) await reply(ctx, change, message, inRelease);
}

/** Asks the approvers the policy names to look at a change that waits for them. */
export async function notifyApprovers(
  ctx: Pick<BotContext, 'commandName' | 'logger' | 'slack'>,
  change: Change,
): Promise<void> {
  if (change.status !== 'awaiting_approval') return;
  const message = renderApprovalRequest(change, ctx.commandName);
  if (message) await reply(ctx, change, message, false);
}

async function reply(
  ctx: Pick<BotContext, 'logger' | 'slack'>,
  change: Change,
  message: SlackMessage,
  broadcast: boolean,
) {
  const threadTs = change.origin.threadTs ?? change.origin.messageTs;
  if (!threadTs) return;
  try {
    const post = {
      channel: change.origin.channel,
      thread_ts: threadTs,
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
    };
    await ctx.slack.chat.postMessage(broadcast ? { ...post, reply_broadcast: true } : post);
  } catch (err) {
    ctx.logger.warn('could not post a notice about a change', { changeId: change.id, error: err });
  }
}
