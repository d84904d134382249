/**
 * Telling people, in the change message's thread: a rewritten message
 * notifies nobody, a reply that mentions someone does. In a release thread
 * the final outcome is also broadcast to the channel, where the people who
 * follow the release read. Best effort: a reply Slack refuses is logged, and
 * never turns a done change into a reported failure.
 */
import type { Change, ClickOutcome } from '../../changes/change.js';
import type { ClaimedNotices } from '../../changes/change-notices.js';
import type { GuardOutcome } from '../../changes/guard-outcome.js';
import type { ChangeNotice } from '../../store/types.js';
import { renderGuardNotice } from '../render/guard.js';
import type { SlackMessage } from '../render/message.js';
import {
  renderApprovalReminder,
  renderApprovalRequest,
  renderExpiredNotice,
  renderOutcomeNotice,
} from '../render/notices.js';
import type { SlackCalls } from '../runtime/slack-calls.js';
import { inThread } from '../runtime/thread.js';
import type { ChangeMessageDeps } from './deps.js';
import { redrawTried } from './draw.js';
import { changeThread, messageOf, rememberPlace } from './thread.js';

const FINAL_KINDS: ReadonlySet<ClickOutcome['kind']> = new Set(['applied', 'failed', 'rejected']);

/** Tells the requester what `actor`'s click did to their change (not when they clicked it themselves). */
export async function notifyOutcome(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'slack' | 'store'>,
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

/**
 * Asks the approvers the policy names to look at a change that waits for
 * them, and keeps the ask's ts in Slack's table, so the ask is marked
 * answered when the change moves on (ask-reply.ts).
 */
export async function notifyApprovers(
  ctx: Pick<ChangeMessageDeps, 'commandName' | 'logger' | 'slack' | 'store'>,
  change: Change,
): Promise<void> {
  if (change.status !== 'awaiting_approval') return;
  const message = renderApprovalRequest(change, ctx.commandName);
  if (!message) return;
  const { ts } = await reply(ctx, change, message, false);
  if (!ts) return;
  rememberPlace(ctx, { changeId: change.id, channel: change.origin.channel, askTs: ts });
  await ctx.store
    .noteAsk(change.id, change.origin.channel, ts)
    .catch((err: unknown) =>
      ctx.logger.warn('could not keep the ask reply', { changeId: change.id, error: err }),
    );
}

/**
 * Sends the notices housekeeping claimed (changes/change-notices.ts): the
 * reminder to the approvers, the expiry to the requester, in the change's
 * thread. Each waits for the rewrites of its own change's message asked for
 * so far (an expired change's message says so before its requester is
 * told), not for other messages' redraws. A notice Slack refused is given
 * back (through the engine), so the next pass sends it; one that was sent is
 * never sent again.
 */
export async function sendClaimedNotices(
  ctx: Pick<ChangeMessageDeps, 'clock' | 'commandName' | 'engine' | 'logger' | 'redraw' | 'slack' | 'store'>,
  notices: ClaimedNotices,
): Promise<void> {
  const now = ctx.clock.now();
  const sends: [Change, ChangeNotice, SlackMessage][] = [
    ...notices.reminders.map((c): [Change, ChangeNotice, SlackMessage] => [
      c,
      'reminder',
      renderApprovalReminder(c, now, ctx.commandName),
    ]),
    ...notices.expired.map((c): [Change, ChangeNotice, SlackMessage] => [
      c,
      'expiry',
      renderExpiredNotice(c),
    ]),
  ];
  await Promise.all(
    sends.map(async ([change, kind, message]) => {
      await redrawTried(ctx, change);
      if ((await reply(ctx, change, message, false)).posted) return;
      await ctx.engine
        .giveBackNotice(change.id, kind)
        .catch((err: unknown) =>
          ctx.logger.warn('could not give a notice back', { changeId: change.id, error: err }),
        );
    }),
  );
}

/** Tells the change's thread how its guard ended (issue 42): a clean window in one line, else who should look and why. */
export async function notifyGuard(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'slack' | 'store'>,
  change: Change,
  outcome: GuardOutcome,
  rollback?: Change,
): Promise<void> {
  const summary = rollback ? (rollback.result?.summary ?? rollback.preview.summary) : undefined;
  // A rollback is news to the channel too when the change belongs to a release.
  await reply(
    ctx,
    change,
    renderGuardNotice(change, outcome, summary),
    outcome.state !== 'passed' && change.origin.releaseId !== undefined,
  );
}

/** Posts `message` in the change's thread (a follow-up's steps too: follow-ups.ts); `posted` false when Slack refused it (a change without a message needs none). */
export async function reply(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'slack' | 'store'>,
  change: Change,
  message: SlackMessage,
  broadcast: boolean,
  /** Follow-ups' steps go as progress, behind outcomes when slots are short (the gateway orders them). */
  calls: SlackCalls = ctx.slack,
): Promise<{ posted: boolean; ts?: string }> {
  const threadTs = changeThread(change, await messageOf(ctx, change));
  if (!threadTs) return { posted: true };
  try {
    const post = {
      channel: change.origin.channel,
      ...inThread(threadTs),
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
    };
    const res = await calls.chat.postMessage(broadcast ? { ...post, reply_broadcast: true } : post);
    return { posted: true, ...(res.ts ? { ts: res.ts } : {}) };
  } catch (err) {
    ctx.logger.warn('could not post a notice about a change', { changeId: change.id, error: err });
    return { posted: false };
  }
}
