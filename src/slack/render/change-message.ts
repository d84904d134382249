/**
 * THE message for a change: posted in the channel when it is requested and
 * rewritten on every state change, so it always shows where the change
 * stands and offers only the buttons that still mean something. Each state
 * is drawn by the part named for it (change-open.ts, change-applied.ts,
 * change-closed.ts), over the shared frame (change-frame.ts), with the
 * notes any state may carry (change-notes.ts).
 */

import { type Change, isUnconfirmed } from '../../changes/change.js';
import { succeeded, unconfirmed } from './change-applied.js';
import { cancelled, expired, failed } from './change-closed.js';
import { withBrokenFreeze, withRecordingPending, withSchedule } from './change-notes.js';
import { applying, awaitingApproval, pending } from './change-open.js';
import type { ChangeLinks } from './change-rollback-offer.js';
import type { SlackMessage } from './message.js';
import { renderScheduledWaiting } from './scheduled.js';

/** The channel message for `change` in its current status; `now` only decides "expires" vs "expired". */
export function renderChange(change: Change, now: number, links: ChangeLinks = {}): SlackMessage {
  const message = withBrokenFreeze(change, withSchedule(change, renderStatus(change, now, links)));
  return change.recordPending ? withRecordingPending(message) : message;
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
