/**
 * The `approvals` answer (issue 18.2): what the asker can act on, and apart
 * from it their own requests that wait on others. Drawn fresh each time, so
 * a list a click made stale is replaced by the same answer.
 */
import type { Change } from '../../changes/change.js';
import { renderApprovals } from '../render/approvals.js';
import type { SlackMessage } from '../render/message.js';
import type { Actor, ChangeCtx } from './context.js';
import { placed } from './placed.js';

/** How many of the asker's newest requests are looked through for those still waiting. */
const OWN_REQUESTS_READ = 200;

/** The approvals answer for `actor`; `notice` says what their last click in the list did. */
export async function approvalsAnswer(ctx: ChangeCtx, actor: Actor, notice?: string): Promise<SlackMessage> {
  const [actionable, own] = await Promise.all([
    ctx.engine.approvableBy(actor.user, actor.channel, actor.team),
    ctx.engine.requestsOf(actor.user, OWN_REQUESTS_READ),
  ]);
  const now = ctx.clock.now();
  const waitingOnOthers = own
    .filter((c: Change) => c.status === 'awaiting_approval' && c.expiresAt > now)
    // Soonest to expire first: those need a nudge first.
    .sort((a, b) => a.expiresAt - b.expiresAt);
  return renderApprovals(await placed(ctx, actionable), now, notice, await placed(ctx, waitingOnOthers));
}
