/**
 * The policy's public shapes: what the change engine and the Slack layer ask
 * and what they get back. The policy knows nothing of Slack: user, group and
 * channel ids are plain strings, group members come from an injected function.
 */
import type { Logger } from '../runtime/logger.js';
import type { Operation, Target } from './operations.js';
import type { PolicyNames } from './words.js';

export interface PolicyContext {
  /**
   * Members (user ids) of a user group; the caller caches it. `workspace` is the Slack team id of
   * the person being checked, when known: an org-wide (Enterprise Grid) install looks groups up in it.
   */
  resolveGroup(groupId: string, workspace?: string): Promise<readonly string[]>;
  /**
   * The name (without '#') of a channel id, used only when a rule lists channels by
   * name. Without it, a channel listed by name matches only a `channel` passed as that name.
   */
  resolveChannelName?(channelId: string): Promise<string | undefined>;
  logger?: Logger;
  /** How refusals write ids and times (Slack: mentions, channel links, date tokens); plain words without it. */
  names?: PolicyNames;
}

export type Decision = { allowed: true; rule: string } | { allowed: false; reason: string; rule?: string };

/** The guard a rule sets on a rollout it governs (issue 42): how long it is watched, and whether it may be declined. */
export interface GuardRequirement {
  withinMs: number;
  optional: boolean;
}

export type Requirement =
  | { mode: 'confirm'; rule: string; expiresInMs: number; guard?: GuardRequirement }
  | {
      mode: 'approval';
      rule: string;
      expiresInMs: number;
      guard?: GuardRequirement;
      required: number;
      /** `users: ['*']` means anyone (other than the requester, unless allowSelfApproval). */
      approvers: { users: string[]; groups: string[] };
      allowSelfApproval: boolean;
    };

export type ApprovalDecision = Decision & { satisfied?: boolean; count?: number; required?: number };

export interface RequestInput {
  user: string;
  channel: string;
  operation: Operation;
  target: Target;
  /** The user's workspace (Slack team id): every question names it, and the policy judges it against `workspaces`. */
  team: string;
}

export interface ClickInput extends RequestInput {
  requester: string;
  /** The change breaks a freeze: approved (and cancelled) under `break_glass`, not its rule's approval. */
  breakGlass?: boolean;
  /** In shared channels and org-wide installs the clicker's workspace (`team`) may differ from the change's. */
  /** The workspace the change was requested in. */
  workspace: string;
}

export interface ApprovalInput extends ClickInput {
  approvals: readonly { userId: string; decision: 'approve' | 'reject' }[];
  now: number;
  expiresAt: number;
}

/**
 * A recurring freeze window of the policy file (`freezes:`). It starts at
 * `from` on each of `days` in `timezone` and ends at the next `to` after
 * that (the next day when `to` is not later than `from`).
 */
export interface FreezeWindow {
  name: string;
  /** Environment names or globs (case-insensitive, as rule targets). */
  environments: string[];
  /** Days the window starts on, 0 = Sunday. */
  days: number[];
  from: { hour: number; minute: number };
  to: { hour: number; minute: number };
  /** IANA zone, validated at load. */
  timezone: string;
  reason?: string;
  /** Whether `environment` is one this window freezes. */
  covers(environment: string): boolean;
}

/** `break_glass:` who may let a change through a freeze; never its requester. */
export interface BreakGlassPolicy {
  required: number;
  approvers: { users: string[]; groups: string[] };
}

export interface Policy {
  /** File path, or 'built-in default'. */
  readonly source: string;
  /** The recurring freeze windows (`freezes:`), in file order; empty when none. */
  readonly freezeWindows: readonly FreezeWindow[];
  /** Who approves a change that breaks a freeze; undefined when the policy names no one (`--break-glass` is refused). */
  readonly breakGlass?: BreakGlassPolicy;
  /** One line saying what the policy allows, for start-up logs. */
  readonly summary: string;
  /** May `user` request `operation` on `target` from `channel`? */
  authorizeRequest(input: RequestInput): Promise<Decision>;
  /**
   * The request judged before its form opens, when `input.target` holds only
   * what the command named: undefined when the answer depends on fields the
   * form has yet to ask (the submission is judged in full anyway).
   */
  judgeForm(input: RequestInput): Promise<Decision | undefined>;
  /** What a change needs before it may be applied (resolved once at request time and stored in the change). */
  requirement(operation: Operation, target: Target): Requirement;
  /**
   * What a change that breaks a freeze needs instead: the break-glass
   * approvers' approval, never the requester's own (its expiry stays the
   * rule's). Undefined when the policy has no `break_glass`.
   */
  breakGlassRequirement(operation: Operation, target: Target): Requirement | undefined;
  /**
   * The refusal when too few people other than `requester` could ever give
   * a break-glass approval; undefined when enough could (or when it can not be told).
   */
  breakGlassShortfall(requester: string, team: string): Promise<string | undefined>;
  /**
   * May `channel` itself read `operation` on `target` (no person asking: a
   * watch posting there)? Only the governing rule's channels decide.
   */
  authorizeChannelRead(input: { channel: string; operation: Operation; target: Target }): Promise<Decision>;
  /** May `user` confirm (only the requester) this change right now? Re-checked on every click. */
  authorizeConfirm(input: ClickInput): Promise<Decision>;
  /** May `user` cancel this change right now (the requester, or anyone who may approve it)? */
  authorizeCancel(input: ClickInput): Promise<Decision>;
  /** May `user` approve/reject? Also returns whether the approvals after adding this one are enough. */
  authorizeApproval(input: ApprovalInput): Promise<ApprovalDecision>;
  /**
   * The stored approvals alone, counted with today's membership (the
   * membership of `team`): whether they still suffice. Asked when an
   * approved change is confirmed, since approvers may have left their group.
   */
  recountApprovals(input: RecountInput): Promise<ApprovalDecision>;
}

/** What a recount needs: the change and its stored votes, without a new voter. */
export type RecountInput = Omit<ApprovalInput, 'user' | 'channel'>;
