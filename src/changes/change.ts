/**
 * The Change as the rest of the bot sees it: the stored record with its
 * preview, policy requirement, approvals and outcome typed. Renderers draw
 * these; nothing here knows Slack.
 */
import type { Freeze } from '../freezes/types.js';
import type { ChangeOperation, Target } from '../policy/operations.js';
import type { Requirement } from '../policy/types.js';
import type { ApprovalRecord, ChangeRecord, ChangeStatus } from '../store/types.js';
import { decodeFailure } from './decode-failure.js';
import type { ChangeFailure } from './failure.js';
import type { ChangeGuard } from './guard-choice.js';
import type { Preview, Result } from './operation.js';
import type { Undo } from './rollback/undo.js';
import { whereToLook } from './where-to-look.js';

/** What the engine stores in the record's `preview` column. */
export interface ChangePlan {
  preview: Preview;
  requirement: Requirement;
  target: Target;
  /**
   * The operation whose policy rule judges clicks on this change, when it is
   * not the change's own (a rollback needing the approval its inverse's rule asks).
   */
  judgeBy?: ChangeOperation;
  /** The change was requested with `--break-glass` during a freeze: it needs the break-glass approvers. */
  breakGlass?: BreakGlass;
  /** Rolled back automatically on trouble within its window after the apply (issue 42, guard-choice.ts). */
  guard?: ChangeGuard;
}

/** A change that breaks a freeze: why its requester says it must, and the freeze it breaks (as at request). */
export interface BreakGlass {
  reason: string;
  freeze: Freeze;
}

export type { ApiState, ChangeFailure } from './failure.js';
export { apiState, isUnconfirmed } from './failure.js';

/** What of the stored record a Change leaves out: the apply's holder, and when its once-only notices went. */
type RecordOnly = 'applyingOwner' | 'applyingSince' | 'remindedAt' | 'expiryToldAt';

/**
 * The stored record's fields (declared once, in store/types.ts) with what
 * the record keeps untyped typed: the operation, the plan, the result and
 * the failure; and the change's approvals.
 */
export interface Change
  extends Omit<ChangeRecord, RecordOnly | 'operation' | 'preview' | 'result' | 'error' | 'applyToken'> {
  operation: ChangeOperation;
  preview: Preview;
  requirement: Requirement;
  target: Target;
  /** The operation clicks are judged as (see ChangePlan.judgeBy); the change's own when unset. */
  judgeBy?: ChangeOperation;
  /** Set when it breaks a freeze (see ChangePlan.breakGlass). */
  breakGlass?: BreakGlass;
  /** Set when it is guarded (see ChangePlan.guard). */
  guard?: ChangeGuard;
  approvals: ApprovalRecord[];
  applyToken: string;
  result?: Result;
  error?: ChangeFailure;
  /**
   * The status shown is this process's settlement, not yet stored: the bot's
   * database failed after the API answered. Housekeeping stores it when it can.
   */
  recordPending?: true;
  /** What a rollback needs, recorded when it applied. */
  undo?: Undo;
  /** When it applied. */
  appliedAt?: number;
  /** The rollback change that claimed it, and when. */
  rolledBackBy?: string;
  rolledBackAt?: number;
}

/** Turns a stored record (and its approvals) into a Change. */
export function toChange(record: ChangeRecord, approvals: ApprovalRecord[]): Change {
  const {
    applyingOwner: _owner,
    applyingSince: _since,
    remindedAt: _reminded,
    expiryToldAt: _told,
    operation,
    preview,
    result,
    error: stored,
    applyToken,
    undo,
    ...rest
  } = record;
  const plan = preview as ChangePlan;
  const change: Change = {
    ...rest,
    operation: operation as ChangeOperation,
    preview: plan.preview,
    requirement: plan.requirement,
    target: plan.target,
    ...(plan.judgeBy ? { judgeBy: plan.judgeBy } : {}),
    ...(plan.breakGlass ? { breakGlass: plan.breakGlass } : {}),
    ...(plan.guard ? { guard: plan.guard } : {}),
    approvals,
    applyToken: applyToken ?? record.id,
    result: result as Result | undefined,
    ...(undo ? { undo: undo as Undo } : {}),
  };
  // Old rows may hold failures stored as words; they decode to the nearest kind.
  const error = decodeFailure(stored, { where: whereToLook(change), since: record.updatedAt });
  return error ? { ...change, error } : change;
}

/** Why a click on a change did nothing, as data (who, what, when) the Slack layer puts in words. */
export type StaleReason =
  /** Applied once, without a clear answer yet; `failure` is what is known. */
  | { kind: 'unconfirmed'; failure?: ChangeFailure }
  /** Being applied by `by` now. */
  | { kind: 'applying'; by: string }
  /**
   * Another click holds the apply and may not have moved the change to
   * applying yet; `by` when it can only be theirs (a pending change is
   * confirmed by its requester alone).
   */
  | { kind: 'busy'; by?: string }
  /** Already applied (by `by`, when known). */
  | { kind: 'succeeded'; by?: string }
  /** Already ran and failed; `failure` says why, when known. */
  | { kind: 'failed'; failure?: ChangeFailure }
  | { kind: 'rejected'; by?: string }
  | { kind: 'cancelled'; by?: string }
  /** Expired at `at` (epoch ms) without being applied. */
  | { kind: 'expired'; at: number }
  | { kind: 'approved' }
  | { kind: 'waiting' };

/** The outcome of a click (confirm, approve, reject, cancel), for the caller to render. */
export type ClickOutcome =
  | { kind: 'applied'; change: Change }
  | { kind: 'failed'; change: Change }
  /** The apply ended without a clear answer and a read could not settle it; housekeeping keeps checking. */
  | { kind: 'unconfirmed'; change: Change }
  /** `repeat`: this approver had approved already; nothing new was recorded. */
  | { kind: 'approval_recorded'; change: Change; count: number; required: number; repeat?: boolean }
  | { kind: 'rejected'; change: Change }
  | { kind: 'cancelled'; change: Change }
  /** Confirmed (or approved enough) ahead of its time: a scheduled change waits, approved, for its time. */
  | { kind: 'scheduled'; change: Change }
  /** The policy refused this user this click; nothing changed. */
  | { kind: 'refused'; message: string; change: Change }
  /** The change is no longer actionable (being applied, done, expired, cancelled); nothing changed. */
  /** Too late; `expiredIt` when this click found the change past its expiry and closed it. */
  | { kind: 'stale'; reason: StaleReason; change: Change; expiredIt?: true };

export const FINAL_STATUSES: readonly ChangeStatus[] = ['succeeded', 'failed', 'cancelled', 'expired'];
