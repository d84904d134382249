/**
 * Why a change failed, as data: a closed union of kinds, each with the fields
 * its message needs. Renderers (slack/render/failure-text.ts) write the words;
 * nothing here is a sentence, and nothing parses one back. The only free text
 * is what others wrote: a UserError's message (shown as written), the hosting
 * API's own explanation, and a rejecting approver's reason.
 */
import type { UserErrorKind } from '../errors/user-error.js';

import type { Freeze } from '../freezes/types.js';

/** Whether the hosting API is known to be as it was ('unchanged') or may hold the write ('unknown'). */
export type ApiState = 'unchanged' | 'unknown';

/** The API call a failure is about; `path` without its query. */
export interface FailedCall {
  method: string;
  path: string;
}

/** The permission the service account lacked, when the request's path tells it. */
export interface NeededPermission {
  group: string;
  resource: string;
  verb: string;
  scope?: { kind: 'environment' | 'branch'; name: string };
}

/** What the API said about a failed call: its Status reason (if any) and its own text. */
export interface ApiDetail {
  reason?: string;
  /** The API's message, without our "METHOD /path: status" prefix and without internal addresses. */
  text: string;
}

/** How an apply ended without a clear answer. */
export type UnclearAnswer =
  /** The API accepted the call, but its answer could not be read. */
  | { kind: 'unreadable'; call: FailedCall }
  | { kind: 'timeout'; call: FailedCall }
  | { kind: 'connection_broke'; call: FailedCall }
  /** An HTTP status; `explained` when the body was the API's own Status object. */
  | { kind: 'status'; call: FailedCall; status: number; explained: boolean }
  /** Not an API error at all (a bug); logged under `errorId` when known. */
  | { kind: 'unexpected'; errorId?: string }
  /** The replica applying it stopped before the API answered. */
  | { kind: 'interrupted' }
  /** A failure stored by an older version, as it was worded then. */
  | { kind: 'earlier'; text: string };

/** Why a change failed (or, for 'unconfirmed', why its outcome is still open). */
export type ChangeFailure =
  /** A UserError: its text is shown as written. */
  | { kind: 'user'; problem: UserErrorKind; text: string }
  /** A guarded patch kept failing because the object kept changing. */
  | { kind: 'conflict'; object: string; name: string; attempts: number }
  /** No response (status 0). */
  | { kind: 'unreachable'; call: FailedCall; detail: ApiDetail }
  | { kind: 'unauthorized'; call: FailedCall }
  | { kind: 'forbidden'; call: FailedCall; detail: ApiDetail; permission?: NeededPermission }
  | { kind: 'not_found'; call: FailedCall; detail: ApiDetail }
  /** 400, 409 or 422: the API refused the change itself. */
  | { kind: 'api_rejected'; call: FailedCall; status: number; detail: ApiDetail }
  | { kind: 'rate_limited'; call: FailedCall }
  /** Any other status. */
  | { kind: 'api_failed'; call: FailedCall; status: number; detail: ApiDetail }
  /** The bot's own database failed; details logged under `errorId`. */
  | { kind: 'store_unavailable'; errorId: string }
  /** A bug; details logged under `errorId`. */
  | { kind: 'internal'; errorId: string }
  | { kind: 'rejected'; by?: string; reason?: string }
  | { kind: 'cancelled'; by?: string }
  /**
   * The apply ended without a clear answer and a read could not settle it
   * (`check`: the read failed, or does not show the change yet); the change
   * stays applying and housekeeping reads again. `where` names what to look at.
   */
  | {
      kind: 'unconfirmed';
      answer: UnclearAnswer;
      check: 'unreadable' | 'not_seen';
      where: string;
      since: number;
      /** The write may still land, so a read that does not show it proves nothing yet. */
      mayStillLand: boolean;
    }
  /** An unclear apply, then a read showed the change is not there. */
  | { kind: 'not_applied'; answer: UnclearAnswer; where: string }
  /** Reads over `overMs` after an unclear apply never showed the change. */
  | { kind: 'never_landed'; answer: UnclearAnswer; where: string; overMs: number }
  /**
   * A scheduled change no replica applied within the grace after its time
   * (`lateMs` after it, past `graceMs`): nothing was applied (changes/schedule/due.ts).
   */
  | { kind: 'missed'; scheduledAt: number; lateMs: number; graceMs: number }
  /** A scheduled change refused at its time by a freeze in force then (changes/schedule/due.ts). */
  | { kind: 'frozen'; freeze: Freeze }
  /** A failure stored by an older version, as it was worded then. */
  | { kind: 'earlier'; text: string; state: ApiState };

/** Whether the hosting API is known to be as it was after `failure`. */
export function apiState(failure: ChangeFailure): ApiState {
  switch (failure.kind) {
    case 'earlier':
      return failure.state;
    // Internal errors may strike after the write; a database failure may hide whether it ran.
    case 'internal':
    case 'store_unavailable':
    case 'unconfirmed':
      return 'unknown';
    default:
      return 'unchanged';
  }
}

/** An applying change whose apply has ended without a clear answer; housekeeping keeps checking it. */
export function isUnconfirmed(change: { status: string; error?: ChangeFailure }): boolean {
  return change.status === 'applying' && change.error?.kind === 'unconfirmed';
}
