/**
 * An applied change's aftermath (scheduled, running, terminated, ...) posted
 * step by step in its message's thread. The domain runs the follow-up, on
 * whichever replica holds its lease, Slack or not (changes/engine/follow-ups.ts),
 * and publishes each step as a `step` event (a `resumed` one first when a
 * replica took up a follow-up another one stopped); this only writes them.
 */
import type { Change } from '../../changes/change.js';
import type { FollowEvent } from '../../changes/operation.js';
import { renderFollowEvent, renderFollowResumed, tailOffer } from '../render/follow.js';
import type { ChangeMessageDeps } from './deps.js';
import { reply } from './notify.js';

/** Posts one follow-up step in the change's thread (a Vessel it created gets "Tail logs"; an end that needs the requester's eyes names them). */
export async function postFollowStep(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'progress' | 'slack' | 'store'>,
  change: Change,
  step: FollowEvent,
): Promise<void> {
  await reply(
    ctx,
    change,
    renderFollowEvent(step, tailOffer(change, step), change.requester),
    false,
    ctx.progress,
  );
}

/** Says in the thread that a follow-up starts again (its steps may repeat ones already posted). */
export async function postFollowResumed(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'progress' | 'slack' | 'store'>,
  change: Change,
): Promise<void> {
  await reply(ctx, change, renderFollowResumed(), false, ctx.progress);
}
