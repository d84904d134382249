/**
 * Reject asks why: the Reject button opens a small modal for the reason, and
 * its submission rejects the change with that reason through the same click
 * flow as every other button. The modal opens first (the click's trigger id
 * lasts 3 s); whether the clicker may reject is checked right after, and a
 * refusal replaces the form instead of wasting the reason they would type.
 */
import type { Change } from '../../changes/change.js';
import { staleReason } from '../../changes/stale-reason.js';
import { UserError } from '../../errors/user-error.js';
import { REJECT_REASON_INPUT, type RejectMetadata } from '../ids.js';
import { escapeMrkdwn } from '../limits.js';
import type { SlackMessage } from '../render/message.js';
import { REASON_MAX, renderRejectModal } from '../render/reject-modal.js';
import { renderStaleReason } from '../render/stale-reply.js';
import { statusView } from '../render/status-view.js';
import { slackFetch } from '../runtime/slack-fetch.js';
import { handleClick } from './click.js';
import type { Actor, BotContext, FollowCtx, PrivateReply } from './context.js';
import { rememberOpenedView, updateOpenedView } from './opened-views.js';

/**
 * Opens the Reject modal for `changeId` (or finds the change can no longer be
 * rejected) and returns the slower step: telling the clicker so, or checking
 * they may reject at all, which replaces the form when not.
 */
export async function openRejectModal(
  ctx: Pick<BotContext, 'clock' | 'engine' | 'policy' | 'slack' | 'store'>,
  triggerId: string,
  meta: RejectMetadata,
  actor: Actor,
  reply: PrivateReply,
): Promise<() => Promise<void>> {
  const change = await ctx.engine.get(meta.changeId);
  if (!change)
    throw new UserError('This change no longer exists (it may have been cleaned up).', 'not_found');
  if (change.status !== 'awaiting_approval') {
    const text = renderStaleReason(staleReason(change));
    return () => reply({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  }
  const opened = await ctx.slack.views.open({ trigger_id: triggerId, view: renderRejectModal(change, meta) });
  return async () => {
    // Stored before anything else: only a reason modal the bot opened can reject (listeners/reject.ts).
    await rememberOpenedView(ctx, opened.view);
    await refuseInModal(ctx, opened.view?.id, change, actor);
  };
}

// A clicker who may not reject learns it on the form, before typing a reason for nothing.
async function refuseInModal(
  ctx: Pick<BotContext, 'clock' | 'policy' | 'slack' | 'store'>,
  viewId: string | undefined,
  change: Change,
  actor: Actor,
): Promise<void> {
  const decision = await ctx.policy.authorizeApproval({
    user: actor.user,
    channel: actor.channel,
    team: actor.team || change.origin.workspace,
    workspace: change.origin.workspace,
    requester: change.requester,
    operation: change.judgeBy ?? change.operation,
    target: change.target,
    approvals: change.approvals,
    now: ctx.clock.now(),
    expiresAt: change.expiresAt,
  });
  if (!decision.allowed && viewId) {
    await updateOpenedView(ctx, {
      view_id: viewId,
      view: statusView('Cannot reject', `${escapeMrkdwn(decision.reason)}\n\nNothing was changed.`),
    });
  }
}

/** Reads the Reject modal's metadata back; undefined when it is not ours. */
export function readRejectMetadata(privateMetadata: string): RejectMetadata | undefined {
  try {
    const raw = JSON.parse(privateMetadata) as Partial<RejectMetadata>;
    if (typeof raw.changeId !== 'string' || typeof raw.channel !== 'string') return undefined;
    return {
      changeId: raw.changeId,
      channel: raw.channel,
      ...(typeof raw.listResponseUrl === 'string' ? { listResponseUrl: raw.listResponseUrl } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The typed reason, trimmed, or the inline error to show on the field. */
export function readReason(
  values: Record<string, Record<string, { value?: string | null }>>,
): { reason: string } | { error: string } {
  const reason = (values[REJECT_REASON_INPUT]?.[REJECT_REASON_INPUT]?.value ?? '').trim();
  if (!reason) return { error: 'Say why you reject it, so the requester knows what to change.' };
  if (reason.length > REASON_MAX) return { error: `Keep it under ${REASON_MAX} characters.` };
  return { reason };
}

/** Rejects with the reason from the modal, answering where the Reject button was (list or message). */
export async function submitReject(
  ctx: FollowCtx,
  meta: RejectMetadata,
  reason: string,
  actor: Actor,
): Promise<void> {
  const url = meta.listResponseUrl;
  const ephemeral: PrivateReply = async (m) => {
    await ctx.slack.chat.postEphemeral({
      channel: actor.channel,
      user: actor.user,
      text: m.text,
      blocks: m.blocks,
    });
  };
  const reply: PrivateReply = url ? (m) => respondAt(url, m, false) : ephemeral;
  await handleClick(ctx, 'reject', meta.changeId, actor, reply, {
    reason,
    ...(url ? { privateOrigin: true, replaceList: (m: SlackMessage) => respondAt(url, m, true) } : {}),
  });
}

// The approvals list is ephemeral: only its response_url can change it.
async function respondAt(url: string, m: SlackMessage, replace: boolean): Promise<void> {
  const res = await slackFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      response_type: 'ephemeral',
      replace_original: replace,
      text: m.text,
      blocks: m.blocks,
    }),
  });
  if (!res.ok) throw new Error(`response_url answered ${res.status}`);
}
