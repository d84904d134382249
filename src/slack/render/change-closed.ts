/**
 * A change's message once it closed without applying as asked: failed (and
 * whether the API was left as it was), rejected or cancelled (by whom, and
 * the rejecting approver's reason), expired, or missed its scheduled time.
 */

import { apiState, type Change, type ChangeFailure } from '../../changes/change.js';
import { context, escapeFit, finish, mention, section, slackDate, typedText } from './blocks.js';
import { ERROR_MAX, fallback, people, top } from './change-frame.js';
import { closedBy, failureText, rejectionReason, saysNothingChanged } from './failure-text.js';
import type { SlackMessage } from './message.js';
import { frozenAtItsTime } from './scheduled.js';

const REASON_MAX = 1000;

/**
 * Whether the failure guarantees the hosting API was left as it was. The
 * engine reads the API after unclear failures before recording them; internal
 * errors may have struck after the write, so they promise nothing.
 */
export function nothingChanged(failure: ChangeFailure): boolean {
  return apiState(failure) === 'unchanged';
}

export function failed(change: Change): SlackMessage {
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

export function cancelled(change: Change): SlackMessage {
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

export function expired(change: Change): SlackMessage {
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
