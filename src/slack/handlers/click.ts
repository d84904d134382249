/**
 * A click on Confirm, Cancel, Approve or Reject. The engine re-checks the
 * policy for the clicker and claims the change atomically, so a double click
 * or a click on another replica's message applies once. Every outcome that
 * moved the change is drawn on its message and told to the requester in its
 * thread; the clicker alone is told why nothing happened when nothing did; an
 * applied change's aftermath is followed in the message's thread.
 */
import { type Change, type ClickOutcome, FINAL_STATUSES } from '../../changes/change.js';
import type { ChangeAction } from '../ids.js';
import { renderClickReply, renderPrivateClickReply } from '../render/click-reply.js';
import { renderFollowEvent, tailOffer } from '../render/follow.js';
import { approvalsAnswer } from './approvals-answer.js';
import { markAskAnswered } from './ask-reply.js';
import { rewriteChangeMessage } from './change-message.js';
import type { Actor, FollowCtx, PrivateReply } from './context.js';
import { notifyOutcome } from './notify.js';

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
  // "Applying…" is drawn while the apply runs; the final rewrite waits for it so it cannot land last.
  let applyingDrawn: Promise<void> | undefined;
  const click = {
    changeId,
    user: actor.user,
    channel: actor.channel,
    team: actor.team,
    ...(options.reason ? { reason: options.reason } : {}),
    onClaimed: (claimed: Change) => {
      applyingDrawn = rewriteChangeMessage(ctx, claimed);
    },
  };
  const outcome = await ctx.engine[action](click);
  await applyingDrawn;
  ctx.metrics.interactions.inc({ action: `change.${action}`, outcome: outcome.kind });
  // The engine has told the change's release, if any, which redraws its message (src/slack/releases).
  if (changedOrFinal(outcome, ctx.clock.now())) {
    await rewriteChangeMessage(ctx, outcome.change);
    // The ask in the thread is answered now (when the change no longer waits for approvers).
    await markAskAnswered(ctx, outcome.change);
  }
  await notifyOutcome(ctx, outcome, actor.user);
  const text = options.privateOrigin
    ? renderPrivateClickReply(outcome)
    : ownEcho(outcome, actor.user)
      ? undefined
      : renderClickReply(outcome);
  if (options.replaceList && acted(outcome)) {
    // The list the click came from is out of date now: what was done, then what still waits.
    await options.replaceList(await approvalsAnswer(ctx, actor, text));
  } else if (text) {
    await reply({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  }
  // Follow-ups run apart from request work: they can take minutes, and idle() means "answered".
  if (outcome.kind === 'applied') void ctx.followUps.run('follow-up', () => followUp(ctx, outcome.change));
  return outcome;
}

/**
 * Whether the click's outcome should be drawn on the change message. A refused
 * click changed nothing. A stale click on a change another click is still
 * applying must not draw it: its rewrite could land after the applying
 * click's final one and leave "Applying…" for good. A stale click on a
 * finished change redraws it (final states cannot regress) when that repairs
 * something: the message is not known to show it, and the click that settled
 * it is not still drawing it (it settled over REPAIR_AFTER_MS ago). Under a
 * burst of late clicks each redraw would otherwise spend a chat.update slot
 * the workspace shares; housekeeping repairs what a Slack outage left anyway.
 */
function changedOrFinal(outcome: ClickOutcome, now: number): boolean {
  if (outcome.kind === 'refused') return false;
  if (outcome.kind === 'stale') {
    // This click closed it (past its expiry): the message is this click's to draw.
    if (outcome.expiredIt) return true;
    const { status, drawnStatus, updatedAt } = outcome.change;
    return FINAL_STATUSES.includes(status) && drawnStatus !== status && now - updatedAt > REPAIR_AFTER_MS;
  }
  return true;
}

/** How long the click that settled a change may take to draw it before a late click repairs the message. */
const REPAIR_AFTER_MS = 10_000;

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

/** Posts each follow-up step (scheduled, running, terminated, ...) in the change message's thread. */
async function followUp(ctx: FollowCtx, change: Change): Promise<void> {
  const threadTs = change.origin.threadTs ?? change.origin.messageTs;
  if (!threadTs) return;
  let latest = change;
  try {
    for await (const event of ctx.engine.follow(change, ctx.stopping)) {
      // The change's own message shows the last state seen, not the one at apply: where the
      // follow-up ended (scheduled, gone, or last seen at its timeout), not each passing step.
      if (event.state && event.kind !== 'progress') {
        const noted = await ctx.engine.noteState(latest, event.state);
        if (noted) {
          latest = noted;
          await rewriteChangeMessage(ctx, noted);
        }
      }
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
