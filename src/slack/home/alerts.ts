/**
 * The open alerts a person's Home tab lists (issue 29): those of the channels
 * the person is in, asked of Slack when the tab is drawn (conversations.members;
 * membership is never taken from a cache or a payload). At most ten channels
 * are asked about per draw, the ones with the newest alerts.
 */

import type { WatchAlert, WatchStore } from '../../store/watch-types.js';
import type { SlackCalls } from '../runtime/slack-calls.js';

const CHANNELS_ASKED = 10;
const PAGES = 5;

async function isMember(slack: SlackCalls, channel: string, user: string): Promise<boolean> {
  let cursor: string | undefined;
  for (let page = 0; page < PAGES; page++) {
    const res = await slack.conversations.members({ channel, limit: 1000, ...(cursor ? { cursor } : {}) });
    if (res.members?.includes(user)) return true;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) return false;
  }
  return false;
}

/** The open alerts of workspace `team` in channels `user` is in, newest first. */
export async function openAlertsFor(
  store: Pick<WatchStore, 'listAlerts'>,
  slack: SlackCalls,
  user: string,
  team: string,
): Promise<WatchAlert[]> {
  const open = await store.listAlerts({ workspace: team, open: true, limit: 100 });
  const channels = [...new Set(open.map((a) => a.channel))].slice(0, CHANNELS_ASKED);
  const mine = new Set<string>();
  for (const channel of channels) {
    // A channel the bot cannot see into (it left, or it is private) shows nothing rather than failing the tab.
    if (await isMember(slack, channel, user).catch(() => false)) mine.add(channel);
  }
  return open.filter((a) => mine.has(a.channel));
}
