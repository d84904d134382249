/**
 * Whether a rule that needs approvals can ever be satisfied for this requester.
 * A rule needing two approvers from a group of two, one of whom requests,
 * would otherwise page the group, collect one vote and expire hours later.
 */
import type { Audience } from './evaluate.js';
import type { MembershipChecker } from './membership.js';
import { nameAudience, type PolicyNames } from './words.js';

export interface ApprovalNeed {
  rule: string;
  required: number;
  approvers: Audience;
  allowSelfApproval: boolean;
}

/**
 * The refusal when fewer people than `need.required` could approve a request
 * by `requester`, or undefined when enough could (or when it can not be told:
 * '*' admits anyone, and a group that could not be looked up may hold more).
 */
export async function approverShortfall(
  need: ApprovalNeed,
  requester: string,
  members: MembershipChecker,
  names: PolicyNames,
): Promise<string | undefined> {
  if (need.approvers.anyone) return undefined;
  const everyone = await members.everyone(need.approvers);
  if (everyone.unresolved.length > 0) return undefined;
  const eligible = [...everyone.users].filter((user) => need.allowSelfApproval || user !== requester).sort();
  if (eligible.length >= need.required) return undefined;
  const from = nameAudience(need.approvers, names);
  const others = need.allowSelfApproval ? '' : ' other than the requester';
  const who =
    eligible.length === 0
      ? 'nobody qualifies'
      : eligible.length === 1
        ? `only ${names.user(eligible[0] ?? '')} qualifies`
        : `only ${eligible.length} people qualify (${eligible.map(names.user).join(', ')})`;
  return (
    `This change could never be approved, so it was not requested: policy rule \`${need.rule}\` needs ${need.required} approvals from ${from}${others}, and ${who}. ` +
    'Ask whoever maintains the policy to add approvers or lower the number required.'
  );
}
