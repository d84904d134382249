/**
 * Who is in a rule's list, and whether a channel is allowed. Group members come
 * from the injected resolver; one check memoizes lookups so counting several
 * approvers does not ask for the same group twice.
 */
import type { Logger } from '../runtime/logger.js';
import type { Audience } from './evaluate.js';
import { isChannelId } from './schema.js';
import type { PolicyContext } from './types.js';

type Membership = { member: true } | { member: false; unresolved: string[] };

/** Resolves groups once per instance; create one per decision. */
export class MembershipChecker {
  private readonly groups = new Map<string, Promise<ReadonlySet<string> | Error>>();

  constructor(
    private readonly ctx: PolicyContext,
    private readonly logger: Logger,
    /** The workspace of the person checked, passed to the resolver. */
    private readonly workspace?: string,
  ) {}

  /** Whether `user` is listed in `audience` directly, as anyone ('*'), or through one of its groups. */
  async check(audience: Audience, user: string): Promise<Membership> {
    if (audience.anyone || audience.users.includes(user)) return { member: true };
    const unresolved: string[] = [];
    for (const groupId of audience.groups) {
      const members = await this.members(groupId);
      if (members instanceof Error) unresolved.push(groupId);
      else if (members.has(user)) return { member: true };
    }
    return { member: false, unresolved };
  }

  /** Every user `audience` names, directly or through its groups; groups that could not be looked up are listed. */
  async everyone(audience: Audience): Promise<{ users: ReadonlySet<string>; unresolved: string[] }> {
    const users = new Set(audience.users.filter((user) => user !== '*'));
    const unresolved: string[] = [];
    for (const groupId of audience.groups) {
      const members = await this.members(groupId);
      if (members instanceof Error) unresolved.push(groupId);
      else for (const member of members) users.add(member);
    }
    return { users, unresolved };
  }

  private members(groupId: string): Promise<ReadonlySet<string> | Error> {
    let pending = this.groups.get(groupId);
    if (!pending) {
      // A failed lookup fails closed (not a member) and is named in the reason, not thrown:
      // the user learns why they were refused and the click can simply be retried.
      pending = this.ctx.resolveGroup(groupId, this.workspace).then(
        (members) => new Set(members),
        (error: unknown) => {
          this.logger.warn('could not resolve user group for policy check', { groupId, error });
          return error instanceof Error ? error : new Error(String(error));
        },
      );
      this.groups.set(groupId, pending);
    }
    return pending;
  }
}

/** Whether `channel` (an id, or a name when the caller has only that) is among `allowed` entries. */
export async function channelAllowed(
  allowed: readonly string[],
  channel: string,
  ctx: PolicyContext,
  logger: Logger,
): Promise<boolean> {
  if (allowed.includes(channel)) return true;
  const byName = allowed.filter((entry) => !isChannelId(entry));
  if (byName.length === 0) return false;
  if (byName.includes(channel.replace(/^#/, '').toLowerCase())) return true;
  if (!ctx.resolveChannelName || !isChannelId(channel)) return false;
  try {
    const name = await ctx.resolveChannelName(channel);
    return name !== undefined && byName.includes(name.replace(/^#/, '').toLowerCase());
  } catch (error) {
    logger.warn('could not resolve channel name for policy check', { channel, error });
    return false;
  }
}
