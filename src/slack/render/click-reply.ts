/**
 * The short ephemeral answer to the user who clicked a change button, for
 * the cases the rewritten change message does not explain on its own.
 */
import type { ClickOutcome } from '../../changes/change.js';
import { LIMITS, truncate } from './limits.js';

/** What to tell the clicker privately, or undefined when the updated message says it all. */
export function renderClickReply(outcome: ClickOutcome): string | undefined {
  switch (outcome.kind) {
    case 'refused':
    case 'stale':
      return truncate(outcome.message, LIMITS.messageText);
    case 'approval_recorded': {
      const missing = Math.max(0, outcome.required - outcome.count);
      const rest = missing > 0 ? `; waiting for ${missing} more before it is applied.` : '.';
      return `Approval recorded (${outcome.count} of ${outcome.required})${rest}`;
    }
    default:
      return undefined;
  }
}
