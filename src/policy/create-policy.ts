/**
 * The Policy object: request, confirm, cancel and approval decisions over the
 * compiled rules. Every method looks the rule up again and resolves groups
 * again, so a click is judged by who the clicker is now, not when the request
 * was typed.
 */
import { type Logger, silentLogger } from '../runtime/logger.js';
import { approverShortfall } from './eligible-approvers.js';
import { NoMatchingRuleError } from './errors.js';
import { type Audience, findRule, findRuleForPartial, type Rule } from './evaluate.js';
import { channelAllowed, MembershipChecker } from './membership.js';
import { isGuardable, type Operation, type Target } from './operations.js';
import type {
  ApprovalDecision,
  BreakGlassPolicy,
  Decision,
  FreezeWindow,
  Policy,
  PolicyContext,
  RecountInput,
  RequestInput,
  Requirement,
} from './types.js';
import { describeAction, nameAudience, nameChannels, PLAIN_NAMES } from './words.js';
import { workspaceRefusal } from './workspaces.js';

/** What a policy file says besides its rules: its recurring freezes and who may break one. */
export interface PolicyExtras {
  freezeWindows?: readonly FreezeWindow[];
  breakGlass?: BreakGlassPolicy;
}

/** The rule name a break-glass approval is counted under (in refusals and the stored requirement). */
export const BREAK_GLASS_RULE = 'break_glass';

type Approval = { required: number; approvers: Audience; allowSelfApproval: boolean };

/**
 * Builds a Policy over `rules` (in file order) read from `source`. `workspaces`:
 * the Slack workspaces that may request and act; absent, a change is acted on
 * only from the workspace it was requested in.
 */
export function createPolicy(
  rules: readonly Rule[],
  ctx: PolicyContext,
  source: string,
  summary: string,
  workspaces?: readonly string[],
  extras: PolicyExtras = {},
): Policy {
  const logger: Logger = ctx.logger ?? silentLogger;
  const names = ctx.names ?? PLAIN_NAMES;
  // Groups are looked up in the workspace of the person checked (an org-wide install needs it).
  const checker = (workspace: string | undefined) => new MembershipChecker(ctx, logger, workspace);
  // Checked before any rule: a click from the wrong workspace is refused whoever the user is.
  const foreign = (input: RequestInput & { workspace?: string }): Decision | undefined => {
    const reason = workspaceRefusal(workspaces, input.team, input.workspace);
    return reason === undefined ? undefined : { allowed: false, reason };
  };

  const noRule = (operation: Operation, target: Target): string =>
    `No policy rule lets anyone ${describeAction(operation, target)}. Ask whoever maintains the policy to add a rule for it.`;

  // The requester's standing under the rule: in its requesters and in one of its channels.
  const requesterDecision = async (
    rule: Rule,
    input: RequestInput & { workspace?: string },
    requester: string,
  ): Promise<Decision> => {
    const what = describeAction(input.operation, input.target);
    if (rule.requesters) {
      // On a click the requester is someone else, from the workspace the change was requested in.
      const workspace = requester === input.user ? input.team : (input.workspace ?? input.team);
      const membership = await checker(workspace).check(rule.requesters, requester);
      if (!membership.member) {
        const who = requester === input.user ? 'You are' : 'The requester is';
        return {
          allowed: false,
          rule: rule.name,
          reason:
            `${who} not allowed to ${what}: policy rule \`${rule.name}\` lets only ${nameAudience(rule.requesters, names)} do it` +
            `${unresolvedNote(membership.unresolved)}; ask one of them to request it.`,
        };
      }
    }
    if (rule.channels && !(await channelAllowed(rule.channels, input.channel, ctx, logger))) {
      return {
        allowed: false,
        rule: rule.name,
        reason: `You can not ${what} from this channel: policy rule \`${rule.name}\` allows it only in ${nameChannels(rule.channels, names)}. Run the command there.`,
      };
    }
    return { allowed: true, rule: rule.name };
  };

  // The requester's standing, then whether enough others could ever approve what they ask.
  const ruleDecision = async (rule: Rule, input: RequestInput): Promise<Decision> => {
    const decision = await requesterDecision(rule, input, input.user);
    if (!decision.allowed || rule.approval.mode !== 'approval') return decision;
    const shortfall = await approverShortfall(
      { rule: rule.name, ...rule.approval },
      input.user,
      checker(input.team),
      names,
    );
    return shortfall === undefined ? decision : { allowed: false, rule: rule.name, reason: shortfall };
  };

  // Breaking a freeze takes someone else's approval, whatever the rules allow the requester.
  const breakGlass: Approval | undefined = extras.breakGlass && {
    required: extras.breakGlass.required,
    approvers: {
      users: [...extras.breakGlass.approvers.users],
      groups: [...extras.breakGlass.approvers.groups],
      anyone: extras.breakGlass.approvers.users.includes('*'),
    },
    allowSelfApproval: false,
  };
  // The approval a click is judged against: the rule's, or break_glass's for a change that breaks a freeze.
  const approvalOf = (
    rule: Rule,
    input: { breakGlass?: boolean },
  ): { name: string; approval: Approval } | undefined => {
    if (input.breakGlass) return breakGlass && { name: BREAK_GLASS_RULE, approval: breakGlass };
    return rule.approval.mode === 'approval' ? { name: rule.name, approval: rule.approval } : undefined;
  };

  return {
    source,
    summary,
    freezeWindows: extras.freezeWindows ?? [],
    ...(extras.breakGlass ? { breakGlass: extras.breakGlass } : {}),

    async authorizeRequest(input) {
      const refused = foreign(input);
      if (refused) return refused;
      const rule = findRule(rules, input.operation, input.target);
      if (!rule) return { allowed: false, reason: noRule(input.operation, input.target) };
      return ruleDecision(rule, input);
    },

    async authorizeChannelRead(input) {
      const rule = findRule(rules, input.operation, input.target);
      if (!rule) return { allowed: false, reason: noRule(input.operation, input.target) };
      if (rule.channels && !(await channelAllowed(rule.channels, input.channel, ctx, logger))) {
        return {
          allowed: false,
          rule: rule.name,
          reason: `policy rule \`${rule.name}\` lets only ${nameChannels(rule.channels, names)} ${describeAction(input.operation, input.target)}`,
        };
      }
      return { allowed: true, rule: rule.name };
    },

    async judgeForm(input) {
      const refused = foreign(input);
      if (refused) return refused;
      const rule = findRuleForPartial(rules, input.operation, input.target);
      if (rule === 'depends') return undefined;
      if (!rule) return { allowed: false, reason: noRule(input.operation, input.target) };
      return ruleDecision(rule, input);
    },

    requirement(operation, target): Requirement {
      const rule = findRule(rules, operation, target);
      if (!rule) throw new NoMatchingRuleError(noRule(operation, target));
      // A rule's guard reaches only the rollouts it governs (a `*` rule with a guard does not guard a scale).
      const guard = rule.guard && isGuardable(operation) ? { guard: { ...rule.guard } } : {};
      if (rule.approval.mode === 'confirm')
        return { mode: 'confirm', rule: rule.name, expiresInMs: rule.expiresInMs, ...guard };
      const { required, approvers, allowSelfApproval } = rule.approval;
      return {
        mode: 'approval',
        rule: rule.name,
        expiresInMs: rule.expiresInMs,
        ...guard,
        required,
        approvers: { users: [...approvers.users], groups: [...approvers.groups] },
        allowSelfApproval,
      };
    },

    breakGlassRequirement(operation, target): Requirement | undefined {
      if (!breakGlass) return undefined;
      const rule = findRule(rules, operation, target);
      if (!rule) throw new NoMatchingRuleError(noRule(operation, target));
      return {
        mode: 'approval',
        rule: BREAK_GLASS_RULE,
        expiresInMs: rule.expiresInMs,
        required: breakGlass.required,
        approvers: { users: [...breakGlass.approvers.users], groups: [...breakGlass.approvers.groups] },
        allowSelfApproval: false,
      };
    },

    async breakGlassShortfall(requester, team) {
      if (!breakGlass) return undefined;
      return approverShortfall({ rule: BREAK_GLASS_RULE, ...breakGlass }, requester, checker(team), names);
    },

    async authorizeConfirm(input) {
      const refused = foreign(input);
      if (refused) return refused;
      const rule = findRule(rules, input.operation, input.target);
      if (!rule) return { allowed: false, reason: noRule(input.operation, input.target) };
      if (input.user !== input.requester) {
        return {
          allowed: false,
          rule: rule.name,
          reason: `Only the person who requested this change (${names.user(input.requester)}) can confirm it.`,
        };
      }
      // The requester may have left the group, or the click may come from another channel.
      return requesterDecision(rule, input, input.requester);
    },

    async authorizeCancel(input) {
      const refused = foreign(input);
      if (refused) return refused;
      const rule = findRule(rules, input.operation, input.target);
      // Cancelling only ever lowers risk, so a requester may always withdraw their own request.
      if (input.user === input.requester) return { allowed: true, rule: rule?.name ?? 'requester' };
      const asked = rule && approvalOf(rule, input);
      if (asked) {
        const membership = await checker(input.team).check(asked.approval.approvers, input.user);
        if (membership.member) return { allowed: true, rule: asked.name };
        return {
          allowed: false,
          rule: asked.name,
          reason: `Only the requester (${names.user(input.requester)}) or an approver (${nameAudience(asked.approval.approvers, names)}) can cancel this change${unresolvedNote(membership.unresolved)}.`,
        };
      }
      return {
        allowed: false,
        rule: rule?.name,
        reason: `Only the person who requested this change (${names.user(input.requester)}) can cancel it.`,
      };
    },

    async authorizeApproval(input): Promise<ApprovalDecision> {
      if (input.now >= input.expiresAt) {
        return { allowed: false, reason: `This request expired ${names.time(input.expiresAt)}.` };
      }
      const refused = foreign(input);
      if (refused) return refused;
      const rule = findRule(rules, input.operation, input.target);
      if (!rule) return { allowed: false, reason: noRule(input.operation, input.target) };
      const asked = approvalOf(rule, input);
      if (!asked) {
        return {
          allowed: false,
          rule: rule.name,
          reason: input.breakGlass
            ? 'This change breaks a freeze, and the policy names no break-glass approvers (`break_glass`).'
            : `This change needs only the requester's confirmation, not approval (policy rule \`${rule.name}\`).`,
        };
      }
      const { approvers, allowSelfApproval } = asked.approval;
      if (input.user === input.requester && !allowSelfApproval) {
        return {
          allowed: false,
          rule: asked.name,
          reason: input.breakGlass
            ? `You requested this change, and it breaks a freeze: someone else must approve it, ${nameAudience(approvers, names)} (policy \`break_glass\`).`
            : `You requested this change, so someone else must approve it: ${nameAudience(approvers, names)} (policy rule \`${rule.name}\` does not allow self-approval).`,
        };
      }
      const members = checker(input.team);
      const membership = await members.check(approvers, input.user);
      if (!membership.member) {
        return {
          allowed: false,
          rule: asked.name,
          reason: input.breakGlass
            ? `You are not a break-glass approver: this change breaks a freeze, and policy \`break_glass\` needs approval from ${nameAudience(approvers, names)}` +
              `${unresolvedNote(membership.unresolved)}.`
            : `You are not an approver for this change: policy rule \`${rule.name}\` needs approval from ${nameAudience(approvers, names)}` +
              `${unresolvedNote(membership.unresolved)}.`,
        };
      }
      // Earlier votes count only if their authors may still approve now (same person once).
      return countVotes(asked.name, asked.approval, input, members, [input.user]);
    },

    async recountApprovals(input): Promise<ApprovalDecision> {
      const rule = findRule(rules, input.operation, input.target);
      if (!rule) return { allowed: false, reason: noRule(input.operation, input.target) };
      const asked = approvalOf(rule, input);
      if (!asked) return { allowed: true, rule: rule.name, satisfied: true };
      return countVotes(asked.name, asked.approval, input, checker(input.team), []);
    },
  };
}

/**
 * Counts `already` plus the stored approvals whose authors may approve now
 * (today's membership; the requester only when self-approval is allowed;
 * each person once). A rejection by a current approver ends the count.
 */
async function countVotes(
  ruleName: string,
  approval: Approval,
  input: RecountInput,
  members: MembershipChecker,
  already: readonly string[],
): Promise<ApprovalDecision> {
  const { approvers, allowSelfApproval, required } = approval;
  const counted = new Set<string>(already);
  for (const vote of input.approvals) {
    if (vote.userId === input.requester && !allowSelfApproval) continue;
    if (!(await members.check(approvers, vote.userId)).member) continue;
    if (vote.decision === 'reject') {
      return { allowed: false, rule: ruleName, reason: 'This change was already rejected by an approver.' };
    }
    counted.add(vote.userId);
  }
  return {
    allowed: true,
    rule: ruleName,
    satisfied: counted.size >= required,
    count: counted.size,
    required,
  };
}

function unresolvedNote(groups: readonly string[]): string {
  return groups.length === 0
    ? ''
    : ` (membership of ${groups.length === 1 ? 'one group' : `${groups.length} groups`} could not be checked just now; try again)`;
}
