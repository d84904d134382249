/**
 * Who and what exists in the fake workspace: user groups (policy approvers
 * are resolved through them), users and channel names. Tests configure them
 * through the stand-in's options; the kit's own identities are always there.
 */
import { TEST_BOT, TEST_CHANNEL, TEST_TEAM, TEST_USER } from './identity.js';

interface UserProfile {
  name?: string;
  realName?: string;
  isBot?: boolean;
  deleted?: boolean;
  tz?: string;
  email?: string;
}

export interface DirectoryOptions {
  /** Members of each user group, by group id (e.g. `{ S0ONCALL: ['U0ALICE'] }`). */
  usergroups?: Record<string, string[]>;
  /** Channel names by id; the kit's TEST_CHANNEL is included. */
  channels?: Record<string, string>;
  /** Members of each channel, by channel id (conversations.members); an unlisted channel has none. */
  members?: Record<string, string[]>;
  /** Users by id; unlisted ids that look like user ids (U…/W…) get a made-up profile. */
  users?: Record<string, UserProfile>;
  /**
   * Play an org-wide install on Enterprise Grid: auth.test says `is_enterprise_install`, and
   * calls that need a workspace (usergroups.users.list) fail without `team_id`, as with an org token.
   */
  enterpriseInstall?: boolean;
}

/** Answers the read-only lookups (users, groups, channels). */
export class Directory {
  readonly usergroups: Map<string, string[]>;
  readonly channels: Map<string, string>;
  readonly members: Map<string, string[]>;
  readonly enterpriseInstall: boolean;
  private readonly users: Map<string, UserProfile>;

  constructor(options: DirectoryOptions = {}) {
    this.usergroups = new Map(Object.entries(options.usergroups ?? {}));
    this.enterpriseInstall = options.enterpriseInstall ?? false;
    this.channels = new Map(Object.entries({ [TEST_CHANNEL.id]: TEST_CHANNEL.name, ...options.channels }));
    this.members = new Map(Object.entries(options.members ?? {}));
    this.users = new Map(
      Object.entries({
        [TEST_USER.id]: { name: TEST_USER.name },
        [TEST_BOT.userId]: { name: TEST_BOT.name, isBot: true },
        ...options.users,
      }),
    );
  }

  /** A user object shaped like users.info's `user`, or undefined for a non-user id. */
  user(id: string): Record<string, unknown> | undefined {
    const known = this.users.get(id);
    if (!known && !/^[UW][A-Z0-9]+$/.test(id)) return undefined;
    const profile = known ?? {};
    const name = profile.name ?? id.toLowerCase();
    const realName = profile.realName ?? name;
    return {
      id,
      team_id: TEST_TEAM.id,
      name,
      real_name: realName,
      deleted: profile.deleted ?? false,
      is_bot: profile.isBot ?? false,
      is_app_user: false,
      tz: profile.tz ?? 'Europe/Berlin',
      profile: {
        real_name: realName,
        display_name: name,
        ...(profile.email ? { email: profile.email } : {}),
        ...(profile.isBot ? { bot_id: TEST_BOT.botId } : {}),
      },
    };
  }

  /** A channel object shaped like conversations.info's `channel`, or undefined when unknown. */
  channel(id: string): Record<string, unknown> | undefined {
    const name = this.channels.get(id);
    if (name === undefined) return undefined;
    const isIm = id.startsWith('D');
    return {
      id,
      name,
      is_channel: !isIm && !id.startsWith('G'),
      is_group: id.startsWith('G'),
      is_im: isIm,
      is_private: !id.startsWith('C'),
      is_archived: false,
      is_member: true,
      context_team_id: TEST_TEAM.id,
    };
  }
}
