/**
 * An applied change's aftermath (scheduled, running, terminated, ...) posted
 * step by step in its message's thread. The engine records where a step ends
 * on the change and tells it (a `followed` event, which redraws the message);
 * this only writes the thread.
 */
import type { Change } from '../../changes/change.js';
import { renderFollowEvent, tailOffer } from '../render/follow.js';
import { inThread } from '../runtime/thread.js';
import type { ChangeMessageDeps } from './deps.js';
import { changeThread } from './thread.js';

/** Posts each follow-up step in the change message's thread; logs (does not throw) when it stops early. */
export async function followUp(
  ctx: Pick<ChangeMessageDeps, 'engine' | 'logger' | 'slack' | 'stopping'>,
  change: Change,
): Promise<void> {
  const threadTs = changeThread(change);
  if (!threadTs) return;
  try {
    for await (const event of ctx.engine.follow(change, ctx.stopping)) {
      // A Vessel the change created gets a "Tail logs" button on its follow-up; an end that needs
      // the requester's eyes (failed, or no verdict) names them.
      const message = renderFollowEvent(event, tailOffer(change, event), change.requester);
      await ctx.slack.chat.postMessage({
        channel: change.origin.channel,
        ...inThread(threadTs),
        text: message.text,
        blocks: message.blocks,
      });
    }
  } catch (err) {
    ctx.logger.warn('follow-up stopped', { changeId: change.id, error: err });
  }
}
