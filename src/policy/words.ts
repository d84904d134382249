/**
 * The words a refusal uses: operations as people say them ("promote images
 * into branch prod", not `image.promote`), and the users, groups and channels
 * a rule names, so the refused person learns who can help. How an id is
 * written (a Slack mention, a channel link) is the caller's: the policy knows
 * nothing of Slack, so PolicyContext may pass PolicyNames.
 */
import { formatUtcMinute } from '../format/time.js';
import { describe, type Operation, type Target } from '../operations/index.js';
import type { Audience } from './evaluate.js';
import { isChannelId } from './schema.js';

/** How ids and instants are written in refusals. */
export interface PolicyNames {
  user(id: string): string;
  group(id: string): string;
  /** A channel id (e.g. C123); names are written `#name` without asking. */
  channel(id: string): string;
  time(ms: number): string;
}

/** Plain words, for logs and for a policy used outside Slack. */
export const PLAIN_NAMES: PolicyNames = {
  user: (id) => `user ${id}`,
  group: (id) => `group ${id}`,
  channel: (id) => `channel ${id}`,
  time: formatUtcMinute,
};

// A rule may list dozens of people; a refusal names the first few and counts the rest.
const MAX_NAMED = 8;

/** `operation` on `target` as a verb phrase: "promote images from dev into branch prod". */
export function describeAction(operation: Operation, t: Target): string {
  return describe(operation).action(t);
}

/** Who is in a list, by name: "anyone", or "<!subteam^S1> or <@U2>". */
export function nameAudience(audience: Audience, names: PolicyNames): string {
  if (audience.anyone) return 'anyone';
  const all = [...audience.groups.map(names.group), ...audience.users.map(names.user)];
  if (all.length === 0) return 'nobody (the rule lists no one)';
  return orList(all);
}

/** Allowed channels by name: ids as links, names as `#name`. */
export function nameChannels(channels: readonly string[], names: PolicyNames): string {
  return orList(channels.map((c) => (isChannelId(c) ? names.channel(c) : `#${c}`)));
}

/** "a", "a or b", "a, b or c", "a, b, … or 3 more". */
function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length > MAX_NAMED) {
    return `${items.slice(0, MAX_NAMED).join(', ')} or ${items.length - MAX_NAMED} more`;
  }
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** Capitalizes the first letter, so a phrase can start a sentence. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
