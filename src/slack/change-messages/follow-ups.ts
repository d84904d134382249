/**
 * An applied change's aftermath (scheduled, running, terminated, ...) posted
 * step by step in its message's thread. The engine records where a step ends
 * on the change and tells it (a `followed` event, which redraws the message);
 * this only writes the thread.
 */
import type { Change } from '../../changes/change.js';
import { renderFollowEvent, renderFollowResumed, tailOffer } from '../render/follow.js';
import { inThread } from '../runtime/thread.js';
import type { ChangeMessageDeps } from './deps.js';
import { changeThread } from './thread.js';

/**
 * Posts each follow-up step in the change message's thread; logs (does not throw) when it stops
 * early. A `resumed` follow-up (its first replica stopped before the end) says so first, once
 * this replica holds the follow-up: its steps start over and may repeat ones already posted.
 */
export async function followUp(
  ctx: Pick<ChangeMessageDeps, 'engine' | 'logger' | 'progress' | 'stopping'>,
  change: Change,
  resumed = false,
): Promise<void> {
  const threadTs = changeThread(change);
  if (!threadTs) return;
  const post = (message: { text: string; blocks?: unknown[] }) =>
    ctx.progress.chat.postMessage({
      channel: change.origin.channel,
      ...inThread(threadTs),
      text: message.text,
      ...(message.blocks ? { blocks: message.blocks } : {}),
    });
  // The note failing to post must not end the follow-up it announces.
  const onLease = resumed
    ? () =>
        post(renderFollowResumed()).then(
          () => undefined,
          (error: unknown) =>
            ctx.logger.warn('could not say a follow-up resumed', { changeId: change.id, error }),
        )
    : undefined;
  try {
    for await (const event of ctx.engine.follow(change, ctx.stopping, onLease)) {
      // A Vessel the change created gets a "Tail logs" button on its follow-up; an end that needs
      // the requester's eyes (failed, or no verdict) names them.
      await post(renderFollowEvent(event, tailOffer(change, event), change.requester));
    }
  } catch (err) {
    ctx.logger.warn('follow-up stopped', { changeId: change.id, error: err });
  }
}
