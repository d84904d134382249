/**
 * The notices housekeeping sends once per change (issue 18.2): the approvers
 * are reminded when a request that waits for them nears its expiry, and the
 * requester is told when it expired without the approvals it needed. Each is
 * claimed in the store by a conditional update before it is sent, so one
 * replica sends it, once, across restarts; a notice that could not be sent
 * is given back (`releaseNotice`) and the next pass tries again.
 */
import type { ChangeRecord, ChangeStatus, Store } from '../store/types.js';
import { type Change, toChange } from './change.js';

/** Approvers are reminded once less than this share of a request's lifetime is left. */
export const REMIND_WHEN_LEFT = 0.25;

/** How many changes one pass looks at per notice; the rest wait for the next pass. */
const PASS_LIMIT = 200;

/** What one pass claimed: the requests to remind their approvers of, and the expired ones to tell the requester about. */
export interface ClaimedNotices {
  reminders: Change[];
  expired: Change[];
}

/** Claims the notices due at `now`; the caller sends them (and gives back any it could not send). */
export async function claimDueNotices(
  store: Pick<Store, 'listChanges' | 'claimNotice' | 'listApprovalsFor'>,
  now: number,
): Promise<ClaimedNotices> {
  const waiting = await store.listChanges({
    status: ['awaiting_approval'],
    unnoticed: 'reminder',
    limit: PASS_LIMIT,
  });
  const due = waiting.filter((r) => r.expiresAt > now && r.expiresAt - now <= lifetime(r) * REMIND_WHEN_LEFT);
  const reminders = await claimEach(store, due, 'reminder', ['awaiting_approval'], now);

  const expired = await store.listChanges({ status: ['expired'], unnoticed: 'expiry', limit: PASS_LIMIT });
  // Every expired change is claimed, so none is listed again; only those that waited for approvers are
  // told, and scheduled changes whose time passed (missed, or their approvals lapsed first): their
  // requester confirmed them and is not watching for their time.
  const told = (await claimEach(store, expired, 'expiry', ['expired'], now)).filter(
    (c) => c.requirement.mode === 'approval' || c.scheduledAt !== undefined,
  );
  return { reminders: await withApprovals(store, reminders), expired: await withApprovals(store, told) };
}

function lifetime(r: ChangeRecord): number {
  return Math.max(0, r.expiresAt - r.createdAt);
}

async function claimEach(
  store: Pick<Store, 'claimNotice'>,
  records: readonly ChangeRecord[],
  notice: 'reminder' | 'expiry',
  statuses: readonly ChangeStatus[],
  now: number,
): Promise<Change[]> {
  const won: Change[] = [];
  for (const r of records) {
    const claimed = await store.claimNotice(r.id, notice, statuses, now);
    if (claimed) won.push(toChange(claimed, []));
  }
  return won;
}

async function withApprovals(store: Pick<Store, 'listApprovalsFor'>, changes: Change[]): Promise<Change[]> {
  if (changes.length === 0) return [];
  const approvals = await store.listApprovalsFor(changes.map((c) => c.id));
  return changes.map((c) => ({ ...c, approvals: approvals.get(c.id) ?? [] }));
}
