/**
 * Words for a change's approval state: who may approve, how many approvals
 * are needed and who has given one. Used by the change message and the
 * approvals list so both say the same thing.
 */
import type { Change } from '../../changes/change.js';
import { count } from '../../format/english.js';
import { groupMention, joinMapped, mention } from './blocks.js';

// A policy may list many approvers; past this the line names how many more.
const MAX_APPROVER_CHARS = 1200;

/** Distinct users who approved, in the order they did. */
export function approvers(change: Change): string[] {
  const seen = new Set<string>();
  for (const a of change.approvals) if (a.decision === 'approve') seen.add(a.userId);
  return [...seen];
}

/** "<@U1>, <!subteam^S1>" or "anyone other than the requester", from an approval requirement. */
export function whoMayApprove(change: Change): string {
  const r = change.requirement;
  if (r.mode !== 'approval') return 'the requester';
  const anyone = r.approvers.users.includes('*');
  const names = [...(anyone ? [] : r.approvers.users.map(mention)), ...r.approvers.groups.map(groupMention)];
  if (anyone) {
    const who = r.allowSelfApproval ? 'anyone' : 'anyone other than the requester';
    return names.length ? `${who} (including ${list(names)})` : who;
  }
  return names.length ? list(names) : 'nobody (the policy lists no approvers)';
}

/** "1 of 2 approvals so far (<@U3>)", or "0 of 1 approvals so far". */
export function approvalProgress(change: Change): string {
  const required = change.requirement.mode === 'approval' ? change.requirement.required : 1;
  const given = approvers(change);
  const names = given.length ? ` (${joinMapped(given, mention, MAX_APPROVER_CHARS, ', ')})` : '';
  return `${given.length} of ${count(required, 'approval')} so far${names}`;
}

/** Whether the requester may approve their own change, in one sentence. */
export function selfApprovalNote(change: Change): string {
  const r = change.requirement;
  if (r.mode !== 'approval') return '';
  return r.allowSelfApproval
    ? `${mention(change.requester)} may approve their own change.`
    : `${mention(change.requester)} cannot approve their own change.`;
}

function list(names: readonly string[]): string {
  return joinMapped(names, (n) => n, MAX_APPROVER_CHARS, ', ');
}

/**
 * Whether the next approval applies a destructive change: one approval short
 * of the requirement. Its Approve button then carries the danger dialog.
 */
export function appliesDestructive(change: Change): boolean {
  if (!change.preview.destructive) return false;
  const required = change.requirement.mode === 'approval' ? change.requirement.required : 1;
  return approvers(change).length + 1 >= required;
}
