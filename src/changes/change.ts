/**
 * The Change as the rest of the bot sees it: the stored record with its
 * preview, policy requirement, approvals and outcome typed. Renderers draw
 * these; nothing here knows Slack.
 */
import type { ChangeOperation, Target } from '../policy/operations.js';
import type { Requirement } from '../policy/types.js';
import type { ApprovalRecord, ChangeOrigin, ChangeRecord, ChangeStatus } from '../store/types.js';
import type { Preview, Result } from './operation.js';

/** What the engine stores in the record's `preview` column. */
export interface ChangePlan {
  preview: Preview;
  requirement: Requirement;
  target: Target;
}

/** Why a change failed, in words fit for users. */
export interface ChangeFailure {
  message: string;
  /** 'validation' | 'not_found' | 'world_moved' | 'refused' | 'api' | 'unreachable' | 'internal' | 'interrupted' | 'rejected' ... */
  kind: string;
  /** HTTP status from the hosting API, when it answered. */
  status?: number;
  /** For internal errors: the id under which the details were logged. */
  errorId?: string;
  /** Who rejected or cancelled, for those outcomes. */
  by?: string;
  /** The reason a rejecting approver gave, as they typed it. */
  reason?: string;
  /** For 'unconfirmed' (status still applying): when the apply ended without a clear answer. */
  since?: number;
  /** For 'unconfirmed': the write may still land, so a read that does not show it proves nothing yet. */
  mayStillLand?: boolean;
  /** For 'unconfirmed': how the API answered the apply (kept for the final message). */
  answer?: string;
}

/** An applying change whose apply has ended without a clear answer; housekeeping keeps checking it. */
export function isUnconfirmed(change: { status: string; error?: unknown }): boolean {
  return change.status === 'applying' && (change.error as ChangeFailure | undefined)?.kind === 'unconfirmed';
}

export interface Change {
  id: string;
  operation: ChangeOperation;
  request: unknown;
  requester: string;
  origin: ChangeOrigin;
  status: ChangeStatus;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  preview: Preview;
  requirement: Requirement;
  target: Target;
  approvals: ApprovalRecord[];
  confirmedBy?: string;
  applyToken: string;
  result?: Result;
  error?: ChangeFailure;
  version: number;
}

/** Turns a stored record (and its approvals) into a Change. */
export function toChange(record: ChangeRecord, approvals: ApprovalRecord[]): Change {
  const plan = record.preview as ChangePlan;
  return {
    id: record.id,
    operation: record.operation as ChangeOperation,
    request: record.request,
    requester: record.requester,
    origin: record.origin,
    status: record.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    expiresAt: record.expiresAt,
    preview: plan.preview,
    requirement: plan.requirement,
    target: plan.target,
    approvals,
    confirmedBy: record.confirmedBy,
    applyToken: record.applyToken ?? record.id,
    result: record.result as Result | undefined,
    error: record.error as ChangeFailure | undefined,
    version: record.version,
  };
}

/** Why a click on a change did nothing, as data (who, what, when) the Slack layer puts in words. */
export type StaleReason =
  /** Applied once, without a clear answer yet; `detail` is what is known. */
  | { kind: 'unconfirmed'; detail: string }
  /** Being applied by `by` now. */
  | { kind: 'applying'; by: string }
  /** Another click holds the apply and may not have moved the change to applying yet. */
  | { kind: 'busy' }
  /** Already applied (by `by`, when known). */
  | { kind: 'succeeded'; by?: string }
  /** Already ran and failed; `detail` says why, when known. */
  | { kind: 'failed'; detail?: string }
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
  | { kind: 'approval_recorded'; change: Change; count: number; required: number }
  | { kind: 'rejected'; change: Change }
  | { kind: 'cancelled'; change: Change }
  /** The policy refused this user this click; nothing changed. */
  | { kind: 'refused'; message: string; change: Change }
  /** The change is no longer actionable (being applied, done, expired, cancelled); nothing changed. */
  | { kind: 'stale'; reason: StaleReason; change: Change };

export const FINAL_STATUSES: readonly ChangeStatus[] = ['succeeded', 'failed', 'cancelled', 'expired'];
