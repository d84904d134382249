/**
 * Thread replies that tell people about a change, because rewriting its
 * message notifies nobody: the requester when their change is approved,
 * rejected, applied or failed (mentioned by name), and the approvers the
 * policy names when a change waits for them.
 */

import type { Change, ClickOutcome } from '../../changes/change.js';
import { formatRelative } from '../../format/duration.js';
import { noun } from '../../format/english.js';
import { approvalProgress, approvers } from './approval-status.js';
import {
  escapeFit,
  finish,
  groupMention,
  joinMapped,
  mention,
  section,
  slackDate,
  typedText,
} from './blocks.js';
import { closedBy, failureText, rejectionReason } from './failure-text.js';
import type { SlackMessage } from './message.js';
import { frozenAtItsTime, scheduledLine } from './scheduled.js';

const SUMMARY_MAX = 500;
const ERROR_MAX = 1500;
const REASON_MAX = 1500;

/** What to tell the requester about a click's outcome, or undefined when nothing is worth a notification. */
export function renderOutcomeNotice(outcome: ClickOutcome, actor: string): SlackMessage | undefined {
  const c = outcome.change;
  const who = mention(c.requester);
  const summary = `*${escapeFit(c.preview.summary, SUMMARY_MAX)}*`;
  switch (outcome.kind) {
    case 'approval_recorded': {
      // The requester heard of this approval the first time.
      if (outcome.repeat) return undefined;
      const missing = Math.max(0, outcome.required - outcome.count);
      return notice(
        `${who}, ${mention(actor)} approved your change (${outcome.count} of ${outcome.required}): ${summary}. ` +
          `It waits for ${missing} more ${noun(missing, 'approval')}.`,
      );
    }
    case 'scheduled':
      // An approver's approval that completed a scheduled change: the requester learns it is set for its time.
      return notice(
        `:alarm_clock: ${who}, ${mention(actor)} approved your change: ${summary}. It applies ${slackDate(c.scheduledAt as number)}${approvedBy(c)}.`,
      );
    case 'applied': {
      const done = `*${escapeFit(c.result?.summary ?? c.preview.summary, SUMMARY_MAX)}*`;
      const late = scheduledLine(c);
      if (late)
        return notice(
          `:white_check_mark: ${who}, your scheduled change is done${approvedBy(c)} (${late}): ${done}.`,
        );
      // An accepted promotion the target does not list yet is applied, not done (its message says so too).
      if (c.result?.facts.visible === false)
        return notice(
          `:hourglass: ${who}, your change was applied but is not confirmed yet${approvedBy(c)}: ${done}.`,
        );
      return notice(`:white_check_mark: ${who}, your change is done${approvedBy(c)}: ${done}.`);
    }
    case 'failed': {
      const why =
        frozenAtItsTime(c.error) ?? escapeFit(c.error ? failureText(c.error) : 'unknown error', ERROR_MAX);
      return notice(`:x: ${who}, your change failed${approvedBy(c)}: ${summary}.\n${why}`);
    }
    case 'rejected': {
      const closer = closedBy(c);
      const by = closer ? mention(closer) : 'An approver';
      const said = rejectionReason(c);
      const reason = said ? `\n*Reason:* ${typedText(said, REASON_MAX)}` : '';
      return notice(
        `:no_entry: ${who}, ${by} rejected your change: ${summary}. Nothing was applied.${reason}`,
      );
    }
    default:
      return undefined;
  }
}

/**
 * The reply that asks the approvers a policy names (users and groups) to look
 * at a change; undefined when the policy names nobody in particular
 * (`users: ['*']`) or the change needs no approval.
 */
export function renderApprovalRequest(change: Change, commandName: string): SlackMessage | undefined {
  const r = change.requirement;
  if (r.mode !== 'approval') return undefined;
  const who = namedApprovers(change);
  if (!who) return undefined;
  const how = r.required === 1 ? 'an approval' : `${r.required} approvals`;
  return notice(
    `${who}: ${mention(change.requester)} asks for ${how} of *${escapeFit(change.preview.summary, SUMMARY_MAX)}*. ` +
      `Approve or reject it on the message above, or from \`${commandName} approvals\`.`,
  );
}

/**
 * The one reminder before a request expires (issue 18.2), to the approvers the
 * policy names (or to nobody in particular when it names no one), with the
 * time left and how far the approvals are.
 */
export function renderApprovalReminder(change: Change, now: number, commandName: string): SlackMessage {
  const who = namedApprovers(change);
  const summary = `*${escapeFit(change.preview.summary, SUMMARY_MAX)}*`;
  return notice(
    `:hourglass_flowing_sand: ${who ? `${who}: ` : ''}reminder: ${mention(change.requester)}'s request ${summary} ` +
      `expires ${slackDate(change.expiresAt)} (${formatRelative(change.expiresAt, now)}), ` +
      `${approvalProgress(change)}. Approve or reject it on the message above, or from \`${commandName} approvals\`.`,
  );
}

/** Tells the requester their request expired without the approvals it needed; nothing was applied. */
export function renderExpiredNotice(change: Change): SlackMessage {
  const summary = `*${escapeFit(change.preview.summary, SUMMARY_MAX)}*`;
  // A scheduled change no replica reached within the grace: the requester learns it was missed, and why.
  if (change.error?.kind === 'missed')
    return notice(
      `:alarm_clock: ${mention(change.requester)}, your scheduled change ${summary} was not applied. ${escapeFit(failureText(change.error), ERROR_MAX)}`,
    );
  return notice(
    `:hourglass: ${mention(change.requester)}, your request ${summary} expired ${slackDate(change.expiresAt)} ` +
      `with ${approvalProgress(change)}. Nothing was applied; request it again if it is still needed.`,
  );
}

/**
 * The ask once answered (issue 18.12): who asked for what, and what became of
 * it, by whom. No buttons, and names rather than mentions: it is a record
 * now, not a call (an edited message notifies nobody anyway).
 */
export function renderAnsweredAsk(change: Change): SlackMessage {
  const summary = `*${escapeFit(change.preview.summary, SUMMARY_MAX)}*`;
  const asked = `${mention(change.requester)} asked for an approval of ${summary}`;
  return notice(`${askLead(change)} ${asked}; ${answerOf(change)}.`);
}

// What became of the ask, first: nobody answered one that expired or that its requester withdrew.
function askLead(change: Change): string {
  if (change.status === 'expired') return ':hourglass: Not answered in time:';
  if (change.status === 'cancelled' && change.error?.kind !== 'rejected') return ':no_entry_sign: Withdrawn:';
  return ':ballot_box_with_check: Answered:';
}

// "<@B> approved it", "<@B> rejected it", "<@A> cancelled it", "it expired without the approvals it needed".
function answerOf(change: Change): string {
  const by = closedBy(change);
  if (change.error?.kind === 'rejected') return `${by ? mention(by) : 'an approver'} rejected it`;
  if (change.status === 'cancelled') return `${by ? mention(by) : 'it was'} cancelled${by ? ' it' : ''}`;
  if (change.status === 'expired')
    return `it expired ${slackDate(change.expiresAt)} with ${approvalProgress(change)}`;
  const given = approvers(change);
  return given.length ? `approved by ${joinMapped(given, mention, 500, ', ')}` : 'it was approved';
}

// The approvers the policy names, as mentions ("" when it names nobody in particular).
function namedApprovers(change: Change): string {
  const r = change.requirement;
  if (r.mode !== 'approval') return '';
  const named = [
    ...r.approvers.users.filter((u) => u !== '*' && u !== change.requester).map(mention),
    ...r.approvers.groups.map(groupMention),
  ];
  return named.length ? joinMapped(named, (n) => n, 1500, ' ') : '';
}

// " (approved by <@B>)" when approvers let it through: the requester learns who to thank or ask.
function approvedBy(change: Change): string {
  const given = approvers(change);
  return given.length ? ` (approved by ${joinMapped(given, mention, 500, ', ')})` : '';
}

function notice(text: string): SlackMessage {
  return finish(text, [section(text)]);
}
