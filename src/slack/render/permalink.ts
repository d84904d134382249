/**
 * Links to messages, built the way Slack writes its permalinks
 * (`https://slack.com/archives/<channel>/p<ts without the dot>`, which Slack
 * sends on to the workspace), so a list of twenty changes costs no
 * chat.getPermalink call per item.
 */
import type { Change } from '../../changes/change.js';

/** The permalink of message `ts` in `channel` (inside thread `threadTs`, when it is a reply). */
export function permalink(channel: string, ts: string, threadTs?: string): string {
  const base = `https://slack.com/archives/${safe(channel)}/p${safe(ts.replace('.', ''))}`;
  return threadTs && threadTs !== ts ? `${base}?thread_ts=${safe(threadTs)}&cid=${safe(channel)}` : base;
}

/** A change with where Slack placed its message (Slack's table, `slack_change_messages`; read by `handlers/placed.ts`). */
export type PlacedChange = Change & { messageTs?: string };

/** The permalink of a change's message, once it has been posted. */
export function changeLink(change: PlacedChange): string | undefined {
  const { channel, threadTs } = change.origin;
  return change.messageTs ? permalink(channel, change.messageTs, threadTs) : undefined;
}

/** `<url|label>` around already-escaped mrkdwn `label`, or the label alone without a url. */
export function linked(label: string, url: string | undefined): string {
  // Inside a link, `|` and `>` end the label early; escaped text holds no `>`, so only `|` is swapped.
  return url ? `<${url}|${label.replaceAll('|', '¦')}>` : label;
}

// Ids and ts values are Slack's; anything else is dropped so a link can never break the markup.
function safe(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '');
}
