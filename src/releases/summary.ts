/**
 * The figures of an ended release, from its changes alone: what was applied,
 * what failed or was withdrawn, how many approvals were given and how long
 * things took. Pure, so the summary is tested without Slack or a store.
 */
import type { Change } from '../changes/change.js';
import type { ReleaseSnapshot, ReleaseSummary } from './types.js';

/** Summarizes `snapshot` as ended at `endedAt`, with `tailsStopped` tails stopped by the end. */
export function summarize(snapshot: ReleaseSnapshot, endedAt: number, tailsStopped: number): ReleaseSummary {
  const { release, changes } = snapshot;
  const count = (test: (c: Change) => boolean) => changes.filter(test).length;
  const rejected = (c: Change) => c.status === 'cancelled' && c.error?.kind === 'rejected';
  const applied = changes.filter((c) => c.status === 'succeeded');
  const approvalWaits = changes.flatMap((c) => {
    const first = c.approvals.find((a) => a.decision === 'approve');
    return first ? [first.at - c.createdAt] : [];
  });
  const medianToDoneMs = median(applied.map((c) => c.updatedAt - c.createdAt));
  return {
    release,
    ...(snapshot.data.endedBy ? { endedBy: snapshot.data.endedBy } : {}),
    endedAt,
    durationMs: Math.max(0, endedAt - release.createdAt),
    applied: applied.length,
    failed: count((c) => c.status === 'failed'),
    cancelled: count((c) => c.status === 'cancelled' && !rejected(c)),
    rejected: count(rejected),
    expired: count((c) => c.status === 'expired'),
    open: count((c) => ['pending', 'awaiting_approval', 'approved', 'applying'].includes(c.status)),
    approvals: changes.reduce((n, c) => n + c.approvals.filter((a) => a.decision === 'approve').length, 0),
    ...(medianToDoneMs !== undefined ? { medianToDoneMs } : {}),
    ...(approvalWaits.length ? { longestApprovalWaitMs: Math.max(...approvalWaits) } : {}),
    tailsStopped,
    changes,
  };
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
