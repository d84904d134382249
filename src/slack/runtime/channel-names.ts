/**
 * Channel names for policy rules that name channels, as Slack itself says
 * them (`conversations.info`; scopes `channels:read` and `groups:read` in
 * manifest.yml). A name a payload carries (a command's `channel_name`, a
 * click's `channel.name`, a modal's metadata) is a claim anyone holding a
 * valid signature can write, so it is never believed. Names are cached for a
 * few minutes: a rename is rare, and a lookup failure is not cached.
 */

import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { SlackCalls } from './slack-calls.js';

const TTL_MS = 5 * 60_000;

export class ChannelNames {
  private readonly cache = new Map<string, { name: string | undefined; at: number }>();
  private readonly inFlight = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly client: Pick<SlackCalls, 'conversations'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The channel's name as Slack reports it now (or within the last few minutes); undefined when Slack gives none. */
  async resolve(channelId: string): Promise<string | undefined> {
    const hit = this.cache.get(channelId);
    if (hit && this.clock.now() - hit.at < TTL_MS) return hit.name;
    const pending = this.inFlight.get(channelId);
    if (pending) return pending;
    const load = this.lookUp(channelId).finally(() => this.inFlight.delete(channelId));
    this.inFlight.set(channelId, load);
    return load;
  }

  private async lookUp(channelId: string): Promise<string | undefined> {
    try {
      const res = await this.client.conversations.info({ channel: channelId });
      const name = typeof res.channel?.name === 'string' ? res.channel.name : undefined;
      this.cache.set(channelId, { name, at: this.clock.now() });
      return name;
    } catch (err) {
      // Fail closed: a rule naming channels then does not match this one, and the refusal says so.
      this.logger.warn('could not look up a channel name', { channelId, error: err });
      return undefined;
    }
  }
}
