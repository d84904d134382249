/**
 * A click on Confirm, Cancel, Approve or Reject. The engine re-checks the
 * policy for the clicker and claims the change atomically, so a double click
 * or a click on another replica's message applies once. Every outcome that
 * moved the change is drawn on its message; the clicker alone is told
 * why nothing happened when nothing did; an applied change's aftermath is
 * followed in the message's thread.
 */
import { type Change, type ClickOutcome, FINAL_STATUSES } from '../../changes/change.js';
import type { ChangeAction } from '../ids.js';
import { renderClickReply, renderPrivateClickReply } from '../render/click-reply.js';
import { renderFollowEvent, tailOffer } from '../render/follow.js';
import { rewriteChangeMessage } from './change-message.js';
import type { Actor, BotContext, PrivateReply } from './context.js';

/**
 * Runs the click through the engine and shows its outcome. `privateOrigin`: the
 * button sat in an ephemeral message (the approvals list), where the rewritten
 * change message is not in view, so the clicker is told every outcome.
 */
export async function handleClick(
  ctx: BotContext,
  action: ChangeAction,
  changeId: string,
  actor: Actor,
  reply: PrivateReply,
  options: { privateOrigin?: boolean } = {},
): Promise<ClickOutcome> {
  const click = { changeId, user: actor.user, channel: actor.channel, team: actor.team };
  const outcome = await ctx.engine[action](click);
  ctx.metrics.interactions.inc({ action: `change.${action}`, outcome: outcome.kind });
  // The engine has told the change's release, if any, which redraws its message (src/slack/releases).
  if (changedOrFinal(outcome)) await rewriteChangeMessage(ctx, outcome.change);
  const text = options.privateOrigin ? renderPrivateClickReply(outcome) : renderClickReply(outcome);
  if (text) await reply({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  // Follow-ups run apart from request work: they can take minutes, and idle() means "answered".
  if (outcome.kind === 'applied') void ctx.followUps.run('follow-up', () => followUp(ctx, outcome.change));
  return outcome;
}

/**
 * Whether the click's outcome should be drawn on the change message. A refused
 * click changed nothing. A stale click on a change another click is still
 * applying must not draw it: its rewrite could land after the applying
 * click's final one and leave "Applying…" for good. A stale click on a
 * finished change redraws it (final states cannot regress), which repairs a
 * message that still shows buttons.
 */
function changedOrFinal(outcome: ClickOutcome): boolean {
  if (outcome.kind === 'refused') return false;
  if (outcome.kind === 'stale') return FINAL_STATUSES.includes(outcome.change.status);
  return true;
}

/** Posts each follow-up step (scheduled, running, terminated, ...) in the change message's thread. */
export async function followUp(ctx: BotContext, change: Change): Promise<void> {
  const threadTs = change.origin.threadTs ?? change.origin.messageTs;
  if (!threadTs) return;
  try {
    for await (const event of ctx.engine.follow(change, ctx.stopping)) {
      // A Vessel the change created gets a "Tail logs" button on its follow-up.
      const message = renderFollowEvent(event, tailOffer(change, event));
      await ctx.slack.chat.postMessage({
        channel: change.origin.channel,
        thread_ts: threadTs,
        text: message.text,
        blocks: message.blocks,
      });
    }
  } catch (err) {
    ctx.logger.warn('follow-up stopped', { changeId: change.id, error: err });
  }
}
