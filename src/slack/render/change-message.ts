/**
 * THE message for a change: posted in the channel when it is requested and
 * rewritten on every state change, so it always shows where the change
 * stands and offers only the buttons that still mean something.
 */

import type { KnownBlock } from '@slack/types';
import { apiState, type Change, type ChangeFailure, isUnconfirmed } from '../../changes/change.js';
import { GUARD_ACTOR } from '../../changes/engine/guard-rollback.js';
import { outcomeKey, storedOutcome } from '../../changes/follow-outcome.js';
import { offersRollback } from '../../changes/rollback/undo.js';
import { LIMITS } from '../limits.js';
import {
  appliesDestructive,
  approvalProgress,
  approvers,
  selfApprovalNote,
  whoMayApprove,
} from './approval-status.js';
import {
  context,
  escapeFit,
  finish,
  header,
  joinMapped,
  mention,
  section,
  slackDate,
  typedText,
} from './blocks.js';
import { actions, approvalButtons, confirmButtons } from './buttons.js';
import { closedBy, failureText, rejectionReason, saysNothingChanged } from './failure-text.js';
import { freezeLine } from './freezes.js';
import { guardBlocks, guardTitle } from './guard.js';
import type { SlackMessage } from './message.js';
import { linked } from './permalink.js';
import { lineBlocks, previewBlocks } from './preview-blocks.js';
import { rowActions } from './row-actions.js';
import { frozenAtItsTime, renderScheduledWaiting, scheduledLine, scheduleNote } from './scheduled.js';

const SUMMARY_MAX = 1000;
const ERROR_MAX = 2500;
const REASON_MAX = 1000;

/** The channel message for `change` in its current status; `now` only decides "expires" vs "expired". */
export function renderChange(change: Change, now: number, links: ChangeLinks = {}): SlackMessage {
  const message = withBrokenFreeze(change, withSchedule(change, renderStatus(change, now, links)));
  return change.recordPending ? withRecordingPending(message) : message;
}

/**
 * A change requested with `--break-glass` says in every state of its
 * message (preview, waiting, applied) that it breaks a freeze: which, and
 * the reason its requester gave (issue 41). It goes under the summary.
 */
function withBrokenFreeze(change: Change, message: SlackMessage): SlackMessage {
  if (!change.breakGlass) return message;
  const { reason, freeze } = change.breakGlass;
  const note = section(
    `:rotating_light: *Breaks a freeze.* ${freezeLine(freeze)}\n*Why it cannot wait:* ${escapeFit(reason, 500)}${
      change.status === 'awaiting_approval'
        ? '\nIt needs the break-glass approvers, never its requester.'
        : ''
    }`,
  );
  const blocks = [...message.blocks.slice(0, 2), note, ...message.blocks.slice(2)];
  return finish(`${message.text} (breaks a freeze)`, blocks.slice(0, LIMITS.messageBlocks));
}

/** A scheduled change's preview says when it applies, under the summary (render/scheduled.ts). */
function withSchedule(change: Change, message: SlackMessage): SlackMessage {
  const note =
    change.status === 'pending' || change.status === 'awaiting_approval' ? scheduleNote(change) : undefined;
  if (!note) return message;
  const blocks = [...message.blocks.slice(0, 2), section(note), ...message.blocks.slice(2)];
  return finish(`${message.text} (scheduled)`, blocks.slice(0, LIMITS.messageBlocks));
}

/**
 * The bot's database failed after the hosting API answered: what the message
 * shows happened, and it says the record follows (never "try again", which
 * would repeat a write that landed).
 */
function withRecordingPending(message: SlackMessage): SlackMessage {
  const note = context(
    "The hosting API has answered; recording is pending: the bot's database is unavailable just now, " +
      'and this message will update once it is back. Do not request this again.',
  );
  return finish(message.text, [...message.blocks.slice(0, LIMITS.messageBlocks - 1), note]);
}

/** Links to other messages a change's message points at, found by its owner in the store. */
export interface ChangeLinks {
  /** The permalink of the message of the rollback that rolled this change back. */
  rollback?: string;
  /** Who asked for that rollback (a Slack user id), when it could be read. */
  rollbackBy?: string;
}

function renderStatus(change: Change, now: number, links: ChangeLinks): SlackMessage {
  switch (change.status) {
    case 'pending':
      return pending(change, now);
    case 'awaiting_approval':
      return awaitingApproval(change, now);
    case 'approved':
      // Confirmed (or approved) ahead of its time: it waits, with Cancel, for the scheduler.
      if (change.scheduledAt !== undefined && !isUnconfirmed(change)) return renderScheduledWaiting(change);
      return isUnconfirmed(change) ? unconfirmed(change) : applying(change);
    case 'applying':
      return isUnconfirmed(change) ? unconfirmed(change) : applying(change);
    case 'succeeded':
      return succeeded(change, links);
    case 'failed':
      return failed(change);
    case 'cancelled':
      return cancelled(change);
    case 'expired':
      return expired(change);
  }
}

/**
 * Whether the failure guarantees the hosting API was left as it was. The
 * engine reads the API after unclear failures before recording them; internal
 * errors may have struck after the write, so they promise nothing.
 */
export function nothingChanged(failure: ChangeFailure): boolean {
  return apiState(failure) === 'unchanged';
}

function pending(change: Change, now: number): SlackMessage {
  const { summary, destructive } = change.preview;
  const title = destructive ? 'Confirm this destructive change' : 'Confirm this change';
  return finish(fallback(title, summary), [
    ...top(title, summary),
    ...previewBlocks(change.preview),
    context(
      `Requested by ${mention(change.requester)} · ${expiry(change, now)} · only the requester can confirm`,
    ),
    actions(confirmButtons(change.id, summary, destructive, change.preview.warnings)),
  ]);
}

function awaitingApproval(change: Change, now: number): SlackMessage {
  const { summary, destructive } = change.preview;
  // The status leads ("Waiting for approval"); what kind of change it is follows.
  const title = destructive ? 'Waiting for approval: destructive change' : 'Waiting for approval';
  const who = `*Who can approve:* ${whoMayApprove(change)}\n${approvalProgress(change)}`;
  const self = selfApprovalNote(change);
  return finish(fallback(title, summary), [
    ...top(title, summary),
    ...previewBlocks(change.preview),
    section(self ? `${who}\n${self}` : who),
    context(`Requested by ${mention(change.requester)} · ${expiry(change, now)}${ruleNote(change)}`),
    actions(
      approvalButtons(change.id, summary, {
        withCancel: true,
        appliesDestructive: appliesDestructive(change),
        warnings: change.preview.warnings ?? [],
      }),
    ),
  ]);
}

function applying(change: Change): SlackMessage {
  const { summary } = change.preview;
  // Who set it going, as the final message will name them: an approver is not said to have confirmed.
  return finish(fallback('Applying', summary), [
    ...top('Applying', summary),
    ...previewBlocks(change.preview),
    context(`Applying… · ${people(change)}`),
  ]);
}

/** The apply ended without a clear answer: say so, say where to look, and offer no button. */
function unconfirmed(change: Change): SlackMessage {
  const { summary } = change.preview;
  const message = change.error ? failureText(change.error) : 'Could not confirm whether this took effect.';
  return finish(fallback('Outcome unknown', `${summary}: ${message}`), [
    ...top('Outcome unknown', summary),
    section(escapeFit(message, ERROR_MAX)),
    ...lineBlocks(change.preview.lines),
    context(`Apply ended ${slackDate(change.updatedAt)} without a clear answer · ${people(change)}`),
  ]);
}

function succeeded(change: Change, links: ChangeLinks): SlackMessage {
  const summary = change.result?.summary ?? change.preview.summary;
  const outcome = storedOutcome(change.result?.facts);
  const title =
    guardTitle(change) ?? (outcome ? FOLLOW_TITLE[outcomeKey(outcome)] : doneTitle(change.result?.facts));
  // A follow-up that ended badly or without a verdict is the news: it leads, with the requester named.
  const ending =
    outcome && outcome.kind !== 'done'
      ? [section(`${mention(change.requester)} ${escapeFit(outcome.message, ERROR_MAX)}`)]
      : outcome?.evidence
        ? [section(escapeFit(outcome.message, ERROR_MAX))]
        : [];
  return finish(fallback(title, summary), [
    ...top(title, summary),
    ...ending,
    // Ids the API made (a promotion's name, an image's internal name) stay in the audit record:
    // the result says what happened in the words people use.
    ...lineBlocks((change.result?.lines ?? []).filter((l) => !l.secondary)),
    context(`Applied ${slackDate(change.updatedAt)} · ${people(change)}`),
    // Guarded rollouts (issue 42): until when it watches, or how its guard ended.
    ...guardBlocks(change),
    ...rollbackOffer(change, links),
  ]);
}

/**
 * Roll back on an applied change that recorded its inverse, or the line saying
 * which rollback claimed it. The button runs `rollback <change-id>`: past the
 * window, or for a target that moved, that answers why instead of acting.
 */
function rollbackOffer(change: Change, links: ChangeLinks): KnownBlock[] {
  if (change.rolledBackBy) {
    const rollback = linked(`change ${escapeFit(change.rolledBackBy, 80)}`, links.rollback);
    // The person first: on-call asks "who undid this?" before "which change?".
    // A guard's rollback was requested by Harbormaster itself (issue 42): no person to mention.
    const by =
      links.rollbackBy === GUARD_ACTOR
        ? `its guard in ${rollback}`
        : links.rollbackBy
          ? `${mention(links.rollbackBy)} in ${rollback}`
          : rollback;
    return [context(`Rolled back by ${by} ${slackDate(change.rolledBackAt ?? change.updatedAt)}`)];
  }
  if (!offersRollback(change.undo)) return [];
  return rowActions([
    {
      action: 'rollback',
      command: `rollback ${change.id}`,
      spoken: `Roll back: ${change.result?.summary ?? change.preview.summary}`,
    },
  ]);
}

/** The header once the follow-up ended: what it saw, not only that the apply went through. */
const FOLLOW_TITLE: Record<ReturnType<typeof outcomeKey>, string> = {
  done: 'Done',
  synced: 'Synced, not verified',
  timeout: 'Applied, outcome not seen',
  failed: 'Applied, then failed',
};

// An accepted promotion is Done only once the target lists the copy (housekeeping keeps looking);
// a rollout is not Done until its follow-up has seen it.
function doneTitle(facts: Record<string, unknown> | undefined): string {
  const visible = facts?.visible;
  if (visible === false) return 'Requested, not yet visible';
  if (visible === 'never') return 'Never appeared';
  if (facts?.following === 'rollout') return 'Applied, rollout followed';
  // A release rollback that stopped at a refusal: its lines say what was and was not rolled back.
  if (facts?.partial === true) return 'Partly done';
  return 'Done';
}

function failed(change: Change): SlackMessage {
  const { summary } = change.preview;
  const failure = change.error;
  const words = failure ? failureText(failure) : 'The change failed for an unknown reason.';
  // A freeze at a scheduled change's time is drawn with its mention and date tokens.
  const message = frozenAtItsTime(failure) ?? escapeFit(words, ERROR_MAX);
  const unchanged =
    failure && nothingChanged(failure) && !saysNothingChanged(failure) ? '\nNothing was changed.' : '';
  // The preview's fields described the world before the attempt; after a failure they may be
  // stale, so the message keeps the summary and the error only.
  return finish(fallback('Failed', `${summary}: ${words}`), [
    ...top('Failed', summary),
    section(`${message}${unchanged}`),
    context(`Failed ${slackDate(change.updatedAt)} · ${people(change)}`),
  ]);
}

// The rejecting approver's words, quoted so they read as theirs.
function reasonText(change: Change): string {
  const reason = rejectionReason(change);
  return reason ? `\n*Reason:* ${typedText(reason, REASON_MAX)}` : '';
}

function cancelled(change: Change): SlackMessage {
  const { summary } = change.preview;
  const rejected = change.error?.kind === 'rejected';
  const title = rejected ? 'Rejected' : 'Cancelled';
  const closer = closedBy(change);
  const by = closer ? ` by ${mention(closer)}` : '';
  return finish(fallback(title, summary), [
    ...top(title, summary),
    section(`${title}${by}; nothing was applied.${reasonText(change)}`),
    context(`Requested by ${mention(change.requester)}`),
  ]);
}

function expired(change: Change): SlackMessage {
  const { summary } = change.preview;
  // A scheduled change no replica reached within the grace is missed, not expired: say why.
  if (change.error?.kind === 'missed') {
    return finish(fallback('Missed', summary), [
      ...top('Missed', summary),
      section(escapeFit(failureText(change.error), ERROR_MAX)),
      context(
        `Was to apply ${slackDate(change.error.scheduledAt)} · ${people({ ...change, scheduledAt: undefined })}`,
      ),
    ]);
  }
  const lapsed =
    change.scheduledAt !== undefined && change.expiresAt < change.scheduledAt
      ? ` Its approvals expired before its time (${slackDate(change.scheduledAt)}), as the policy says.`
      : '';
  return finish(fallback('Expired', summary), [
    ...top('Expired', summary),
    section(
      `Expired ${slackDate(change.expiresAt)} without being applied; nothing was changed.${lapsed} Request it again if it is still needed.`,
    ),
    context(`Requested by ${mention(change.requester)}`),
  ]);
}

// Header with the status, then the summary in bold: the two things a reader scans for.
function top(title: string, summary: string): KnownBlock[] {
  return [header(title), section(`*${escapeFit(summary, SUMMARY_MAX)}*`)];
}

function fallback(title: string, summary: string): string {
  return `${title}: ${escapeFit(summary, LIMITS.messageText)}`;
}

// No "in 14 min": this message stays up unchanged for minutes and would go stale, while the
// date token renders in each reader's own time zone.
function expiry(change: Change, now: number): string {
  return change.expiresAt > now
    ? `expires ${slackDate(change.expiresAt)}`
    : `expired ${slackDate(change.expiresAt)}`;
}

function ruleNote(change: Change): string {
  return change.requirement.rule ? ` · policy rule \`${escapeFit(change.requirement.rule, 200)}\`` : '';
}

function people(change: Change): string {
  const parts = [`requested by ${mention(change.requester)}`];
  const scheduled = scheduledLine(change);
  if (scheduled) parts.unshift(scheduled);
  const approved = approvers(change);
  // The approval that satisfies the policy also applies the change, recording its author as the
  // confirmer: naming them twice ("confirmed by X · approved by X") would say nothing more.
  if (change.confirmedBy && !approved.includes(change.confirmedBy))
    parts.push(`confirmed by ${mention(change.confirmedBy)}`);
  if (approved.length) parts.push(`approved by ${names(approved)}`);
  return parts.join(' · ');
}

function names(users: readonly string[]): string {
  return joinMapped(users, mention, 1200, ', ');
}
