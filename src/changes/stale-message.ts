/** Polite answers for clicks on a change that can no longer be acted on. */
import { formatUtcMinute } from '../format/time.js';
import { type Change, isUnconfirmed } from './change.js';

/** Why nothing happened on this click, given the change's current state. */
export function staleMessage(change: Change): string {
  switch (change.status) {
    case 'applying':
      if (isUnconfirmed(change))
        return `Already applied once; whether it took effect is not confirmed yet: ${change.error?.message ?? ''}`;
      return `Already being applied by <@${change.confirmedBy ?? change.requester}>; nothing more to do.`;
    case 'succeeded':
      return `Already done${change.confirmedBy ? ` (applied by <@${change.confirmedBy}>)` : ''}; nothing more to do.`;
    case 'failed':
      return `This change already ran and failed: ${change.error?.message ?? 'see the message above'}. Request it again to retry.`;
    case 'cancelled':
      return change.error?.kind === 'rejected'
        ? `This change was rejected by <@${change.error.by}>; nothing was applied.`
        : `This change was cancelled${change.error?.by ? ` by <@${change.error.by}>` : ''}; nothing was applied.`;
    case 'expired':
      return `This change expired at ${formatUtcMinute(change.expiresAt)} without being applied. Request it again if it is still needed.`;
    case 'approved':
      return 'This change is approved and about to be applied.';
    default:
      return 'This change is still waiting; nothing happened on this click.';
  }
}
