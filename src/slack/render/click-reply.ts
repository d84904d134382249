/**
 * The short ephemeral answer to the user who clicked a change button, for
 * the cases the rewritten change message does not explain on its own.
 */
import type { ClickOutcome } from '../../changes/change.js';
import { escapeMrkdwn, LIMITS, truncate } from '../limits.js';
import { fitMrkdwn, slackDate } from './blocks.js';
import { failureText } from './failure-text.js';
import { renderStaleReason } from './stale-reply.js';

const SUMMARY_MAX = 1000;
const ERROR_MAX = 2000;

/** What to tell the clicker privately, or undefined when the updated message says it all. */
export function renderClickReply(outcome: ClickOutcome): string | undefined {
  switch (outcome.kind) {
    case 'refused':
      return truncate(outcome.message, LIMITS.messageText);
    case 'stale':
      return fitMrkdwn(renderStaleReason(outcome.reason), LIMITS.messageText);
    case 'scheduled':
      // The message now says Scheduled; the clicker hears what they set going, and that they can stop it.
      return `Scheduled: it applies ${slackDate(outcome.change.scheduledAt as number)}. Cancel on its message stops it until it starts.`;
    case 'approval_recorded': {
      const missing = Math.max(0, outcome.required - outcome.count);
      const rest = missing > 0 ? `; waiting for ${missing} more before it is applied.` : '.';
      // One message per fact: a second click on Approve records nothing new.
      if (outcome.repeat)
        return `You already approved this change (${outcome.count} of ${outcome.required})${rest}`;
      return `Approval recorded (${outcome.count} of ${outcome.required})${rest}`;
    }
    default:
      return undefined;
  }
}

/**
 * The answer to a click made in a private message (the approvals list): the
 * change's channel message is out of view there, so every outcome is told.
 */
export function renderPrivateClickReply(outcome: ClickOutcome): string {
  const said = renderClickReply(outcome);
  if (said) return said;
  const { change } = outcome;
  const summary = escapeMrkdwn(truncate(change.result?.summary ?? change.preview.summary, SUMMARY_MAX));
  const where = ` Its message in <#${change.origin.channel}> has the details.`;
  switch (outcome.kind) {
    case 'applied':
      return `Done: ${summary}.${where}`;
    case 'failed':
      return `Failed: ${summary}: ${escapeMrkdwn(truncate(change.error ? failureText(change.error) : 'unknown error', ERROR_MAX))}${where}`;
    case 'unconfirmed':
      return `Outcome unknown: ${summary}: ${escapeMrkdwn(truncate(change.error ? failureText(change.error) : '', ERROR_MAX))}${where}`;
    case 'rejected':
      return `Rejected: ${summary}; nothing was applied.${where}`;
    case 'cancelled':
      return `Cancelled: ${summary}; nothing was applied.${where}`;
    default:
      return `${summary}.${where}`;
  }
}
