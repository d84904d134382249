/**
 * The thread reply that asked the approvers (notify.ts keeps its ts in
 * Slack's table) is marked answered once the change stops waiting for them:
 * approved, rejected, cancelled or expired (issue 18.12). One message per
 * fact: the ask becomes the record of its answer, without buttons, and the
 * outcome notices stay their own replies. Best effort: a refused edit is
 * logged, never reported as the change's failure.
 */
import type { Change } from '../../changes/change.js';
import { renderAnsweredAsk } from '../render/notices.js';
import type { ChangeMessageDeps } from './deps.js';
import { messageOf } from './thread.js';

/** Rewrites `change`'s ask as answered, when it has one and no longer waits for approvers. */
export async function markAskAnswered(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'slack' | 'store'>,
  change: Change,
): Promise<void> {
  if (change.status === 'awaiting_approval' || change.status === 'pending') return;
  const askTs = (await messageOf(ctx, change))?.askTs;
  if (!askTs) return;
  const message = renderAnsweredAsk(change);
  try {
    await ctx.slack.chat.update({
      channel: change.origin.channel,
      ts: askTs,
      text: message.text,
      blocks: message.blocks,
    });
  } catch (err) {
    ctx.logger.warn('could not mark an ask answered', { changeId: change.id, error: err });
  }
}
