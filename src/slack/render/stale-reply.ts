/** Polite answers, in Slack's words, for clicks on a change that can no longer be acted on. */
import type { StaleReason } from '../../changes/change.js';
import { escapeMrkdwn } from '../limits.js';
import { mention, slackDate } from './blocks.js';
import { failureText } from './failure-text.js';

/** Why nothing happened on this click, as mrkdwn (mentions, and the expiry in the reader's time zone). */
export function renderStaleReason(reason: StaleReason): string {
  switch (reason.kind) {
    case 'unconfirmed':
      return `Already applied once; whether it took effect is not confirmed yet: ${escapeMrkdwn(reason.failure ? failureText(reason.failure) : '')}`;
    case 'applying':
      return `Already being applied by ${mention(reason.by)}; nothing more to do.`;
    case 'busy':
      return 'Already being applied (another click got there first); nothing more to do.';
    case 'succeeded':
      return `Already done${reason.by ? ` (applied by ${mention(reason.by)})` : ''}; nothing more to do.`;
    case 'failed':
      return `This change already ran and failed: ${reason.failure ? escapeMrkdwn(failureText(reason.failure)) : 'see the message above'}. Request it again to retry.`;
    case 'rejected':
      return `This change was rejected${by(reason.by)}; nothing was applied.`;
    case 'cancelled':
      return `This change was cancelled${by(reason.by)}; nothing was applied.`;
    case 'expired':
      return `This change expired ${slackDate(reason.at)} without being applied. Request it again if it is still needed.`;
    case 'approved':
      return 'This change is approved and about to be applied.';
    case 'waiting':
      return 'This change is still waiting; nothing happened on this click.';
  }
}

function by(user: string | undefined): string {
  return user ? ` by ${mention(user)}` : '';
}
