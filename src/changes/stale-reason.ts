/**
 * Why a click on a change did nothing, as data (who, what, when) for the
 * Slack layer to put in words: the core names users and instants, never
 * draws mentions or formats times.
 */
import { type Change, isUnconfirmed, type StaleReason } from './change.js';

/** Why nothing happened on this click, given the change's current state. */
export function staleReason(change: Change): StaleReason {
  switch (change.status) {
    case 'applying':
      if (isUnconfirmed(change))
        return { kind: 'unconfirmed', ...(change.error ? { failure: change.error } : {}) };
      return { kind: 'applying', by: change.confirmedBy ?? change.requester };
    case 'succeeded':
      return { kind: 'succeeded', ...(change.confirmedBy ? { by: change.confirmedBy } : {}) };
    case 'failed':
      return { kind: 'failed', ...(change.error ? { failure: change.error } : {}) };
    case 'cancelled': {
      const error = change.error;
      const by =
        error && (error.kind === 'rejected' || error.kind === 'cancelled') && error.by
          ? { by: error.by }
          : {};
      return error?.kind === 'rejected' ? { kind: 'rejected', ...by } : { kind: 'cancelled', ...by };
    }
    case 'expired':
      return { kind: 'expired', at: change.expiresAt };
    case 'approved':
      return { kind: 'approved' };
    default:
      return { kind: 'waiting' };
  }
}
