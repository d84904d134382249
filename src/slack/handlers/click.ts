/**
 * A click on Confirm, Cancel, Approve or Reject: ask the engine, answer the
 * person. The engine re-checks the policy for the clicker and claims the
 * change atomically, so a double click or a click on another replica's
 * message applies once; it publishes what the click did (changes/events.ts)
 * without waiting for anyone, and the change-message owner (slack/change-messages)
 * redraws the message and tells the requester in its thread; the domain
 * follows an applied change up. The clicker is answered once the owner has
 * drawn the click; here the clicker alone is told why nothing happened
 * when nothing did.
 */
import type { ClickOutcome } from '../../changes/change.js';
import type { ChangeAction } from '../ids.js';
import { renderClickReply, renderPrivateClickReply } from '../render/click-reply.js';
import { approvalsAnswer } from './approvals-answer.js';
import type { Actor, FollowCtx, PrivateReply } from './context.js';

interface ClickOptions {
  /**
   * The button sat in an ephemeral message (the approvals list), where the
   * rewritten change message is not in view, so the clicker is told every outcome.
   */
  privateOrigin?: boolean;
  /** Replaces the approvals list the click came from with a fresh one (topped by the outcome). */
  replaceList?: PrivateReply;
  /** Why an approver rejects (asked for by the Reject modal). */
  reason?: string;
}

/** Runs the click through the engine and shows its outcome. */
export async function handleClick(
  ctx: FollowCtx,
  action: ChangeAction,
  changeId: string,
  actor: Actor,
  reply: PrivateReply,
  options: ClickOptions = {},
): Promise<ClickOutcome> {
  const outcome = await ctx.engine[action]({
    changeId,
    user: actor.user,
    channel: actor.channel,
    team: actor.team,
    ...(options.reason ? { reason: options.reason } : {}),
  });
  // The engine published what the click did and never waits for its drawing; the person is answered
  // once this replica's message owner has drawn it, so the message in view shows the outcome first.
  await ctx.changeMessages.clickDrawn(changeId);
  ctx.metrics.interactions.inc({ action: `change.${action}`, outcome: outcome.kind });
  const text = options.privateOrigin
    ? renderPrivateClickReply(outcome)
    : ownEcho(outcome, actor.user)
      ? undefined
      : renderClickReply(outcome);
  if (options.replaceList && (acted(outcome) || outcome.kind === 'stale')) {
    // The list the click came from is out of date now (this click moved the change, or another had):
    // what happened, then what still waits, so a finished change no longer offers Approve and Reject.
    await options.replaceList(await approvalsAnswer(ctx, actor, text));
  } else if (text) {
    await reply({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  }
  return outcome;
}

/**
 * A second click by the person whose first click is applying or applied it (a
 * double click): the message in view says so already, so nothing more is sent.
 */
function ownEcho(outcome: ClickOutcome, user: string): boolean {
  if (outcome.kind !== 'stale') return false;
  const { reason } = outcome;
  return (
    (reason.kind === 'succeeded' || reason.kind === 'applying' || reason.kind === 'busy') &&
    reason.by === user
  );
}

/** Whether the clicker's own click moved the change (not refused, not beaten to it). */
function acted(outcome: ClickOutcome): boolean {
  return outcome.kind !== 'refused' && outcome.kind !== 'stale';
}
