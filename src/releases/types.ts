/**
 * What a release thread is made of, as the renderers see it: the stored
 * record, the changes requested from its buttons and its live tails. The
 * record's `data` column is opaque JSON to the store; ReleaseData is its shape.
 */
import { createHash } from 'node:crypto';
import type { Change } from '../changes/change.js';
import type { ReleaseRecord, TailRecord } from '../store/types.js';

/** What a release record keeps in its `data` column. */
export interface ReleaseData {
  /** Who ended it (Slack user id). */
  endedBy?: string;
  /** A start that lost a race with another start of the same title: never shown, never matched. */
  withdrawn?: boolean;
}

/** The release message's inputs: the record, its changes (oldest first) and its active tails. */
export interface ReleaseSnapshot {
  release: ReleaseRecord;
  data: ReleaseData;
  changes: Change[];
  tails: TailRecord[];
}

/** The figures of an ended release, for the summary posted in its thread. */
export interface ReleaseSummary {
  release: ReleaseRecord;
  endedBy?: string;
  endedAt: number;
  durationMs: number;
  applied: number;
  failed: number;
  /** Withdrawn by the requester (or an approver) before anything was applied. */
  cancelled: number;
  rejected: number;
  expired: number;
  /** Still pending, awaiting approval or applying when the release ended. */
  open: number;
  /** Approvals given (one per approver and change). */
  approvals: number;
  /** Median time from request to result, over the applied changes. */
  medianToDoneMs?: number;
  /** Longest wait from request to the first approval, over changes that got one. */
  longestApprovalWaitMs?: number;
  tailsStopped: number;
  /** Every change of the release, oldest first. */
  changes: Change[];
}

/** The `data` of a record, read defensively (it is JSON another version may have written). */
export function releaseData(release: ReleaseRecord): ReleaseData {
  const raw = (release.data ?? {}) as Record<string, unknown>;
  return {
    ...(typeof raw.endedBy === 'string' ? { endedBy: raw.endedBy } : {}),
    ...(raw.withdrawn === true ? { withdrawn: true } : {}),
  };
}

/** Who acts on a release, where: a user of a workspace, in a channel. */
export interface ReleaseActor {
  user: string;
  team: string;
  channel: string;
}

/**
 * Changes of a release that still wait for someone: a confirmation, an
 * approval, or the confirm of an approved change. Ending the release asks
 * what becomes of them. (A change already applying finishes on its own.)
 */
export const WAITING_STATUSES: ReadonlySet<Change['status']> = new Set([
  'pending',
  'awaiting_approval',
  'approved',
]);

/** What the person ending a release chose for its waiting changes, and what they saw when they chose. */
export interface EndChoice {
  waiting: 'cancel' | 'keep';
  /** The release's version when the choice was offered: a second click of the same choice finds it ended. */
  version: number;
  /** waitingDigest() of the changes the choice was offered for: when what waits has changed since, the question is asked again. */
  digest: string;
}

/**
 * A short fingerprint of which changes wait (their ids, in any order): it
 * fits a button's value however many wait, and tells whether the set a
 * person chose for is still the set that waits.
 */
export function waitingDigest(changes: readonly Pick<Change, 'id'>[]): string {
  const ids = changes.map((c) => c.id).sort();
  return createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 24);
}
