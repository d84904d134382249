/**
 * Resolves policy user groups through Slack (`usergroups.users.list`), with a
 * short cache so a burst of clicks costs one call, and one call in flight per
 * group. A failure is not cached: the next click asks Slack again.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';

const TTL_MS = 60_000;

/** A `resolveGroup` for the policy, backed by Slack and cached for a minute. */
export function slackGroupResolver(
  client: WebClient,
  clock: Clock,
  logger: Logger,
): (groupId: string) => Promise<readonly string[]> {
  const cache = new Map<string, { users: readonly string[]; at: number }>();
  const inFlight = new Map<string, Promise<readonly string[]>>();
  return async (groupId) => {
    const hit = cache.get(groupId);
    if (hit && clock.now() - hit.at < TTL_MS) return hit.users;
    const pending = inFlight.get(groupId);
    if (pending) return pending;
    const load = (async () => {
      try {
        const res = await client.usergroups.users.list({ usergroup: groupId });
        const users = res.users ?? [];
        cache.set(groupId, { users, at: clock.now() });
        return users;
      } catch (err) {
        // Deny rather than guess: the policy then refuses with the group named.
        logger.warn('could not resolve a Slack user group; treating it as empty', { groupId, error: err });
        return [];
      } finally {
        inFlight.delete(groupId);
      }
    })();
    inFlight.set(groupId, load);
    return load;
  };
}

/**
 * Channel names learnt from Slack payloads (commands and clicks carry them), so
 * policy rules can name channels without the bot needing `channels:read`.
 */
export class ChannelNames {
  private readonly names = new Map<string, string>();

  /** Remembers a channel's name from a payload. */
  learn(channelId: string | undefined, name: string | undefined): void {
    if (channelId && name && name !== 'directmessage' && name !== 'privategroup')
      this.names.set(channelId, name);
  }

  /** The name seen for `channelId`, if any payload carried it. */
  async resolve(channelId: string): Promise<string | undefined> {
    return this.names.get(channelId);
  }
}
