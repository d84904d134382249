/**
 * What one person sees in the local workspace, as the page fetches it: the
 * channels with their messages (thread replies with their parent's ts,
 * ephemerals only for their addressee), the modals open in front of them
 * with any field errors, and who is who for rendering mentions.
 */

import { TEST_BOT } from './identity.js';
import type { CommandHint } from './manifest.js';
import type { Channel, Person, UserGroup } from './people.js';
import type { SlackStandIn } from './stand-in.js';
import type { StoredView } from './views.js';

interface PageMessage {
  ts: string;
  user: string;
  text: string;
  blocks: unknown[];
  threadTs?: string;
  /** Updated at least once after posting. */
  edited: boolean;
  /** Replies in its thread (top-level messages only). */
  replyCount: number;
  /** Visible only to the viewer. */
  ephemeral: boolean;
  /**
   * Times a response URL replaced this ephemeral whole (`replace_original`): each time is a new
   * answer to read from its start ("Working on it…" giving way to the answer), where a channel
   * message's edits (chat.update: a live tail growing) are the same message read at its end.
   */
  replaced: number;
}

export interface PageState {
  version: number;
  viewer: string;
  bot: { id: string; name: string };
  hint: CommandHint;
  people: readonly Person[];
  groups: readonly UserGroup[];
  channels: readonly Channel[];
  messages: Record<string, PageMessage[]>;
  views: { view: StoredView; errors: Record<string, string> }[];
  /** The viewer's Home tab as the app last published it. */
  home?: StoredView;
}

interface PageStateSources {
  standIn: SlackStandIn;
  hint: CommandHint;
  people: readonly Person[];
  groups: readonly UserGroup[];
  channels: readonly Channel[];
  fieldErrors: Map<string, Record<string, string>>;
  version(): number;
}

/** The snapshot for `viewer`. */
export function pageState(s: PageStateSources, viewer: string): PageState {
  const messages: Record<string, PageMessage[]> = {};
  for (const channel of s.channels) {
    const live = s.standIn.channelMessages(channel.id);
    const replies = new Map<string, number>();
    for (const m of live) {
      if (m.threadTs && m.threadTs !== m.ts) replies.set(m.threadTs, (replies.get(m.threadTs) ?? 0) + 1);
    }
    const shown: PageMessage[] = live.map((m) => ({
      ts: m.ts,
      user: m.user,
      text: m.text,
      blocks: m.blocks,
      ...(m.threadTs && m.threadTs !== m.ts ? { threadTs: m.threadTs } : {}),
      edited: m.history.length > 0,
      replyCount: replies.get(m.ts) ?? 0,
      ephemeral: false,
      replaced: 0,
    }));
    for (const e of s.standIn.ephemerals()) {
      if (e.channel !== channel.id || e.user !== viewer || e.deleted) continue;
      shown.push({
        ts: e.messageTs,
        user: TEST_BOT.userId,
        text: e.text,
        blocks: e.blocks,
        ...(e.threadTs ? { threadTs: e.threadTs } : {}),
        edited: false,
        replyCount: 0,
        ephemeral: true,
        replaced: e.replaced?.length ?? 0,
      });
    }
    messages[channel.id] = shown.sort((a, b) => Number(a.ts) - Number(b.ts));
  }
  return {
    version: s.version(),
    viewer,
    bot: { id: TEST_BOT.userId, name: TEST_BOT.name },
    hint: s.hint,
    people: s.people,
    groups: s.groups,
    channels: s.channels,
    messages,
    views: s.standIn.openViews(viewer).map((view) => ({ view, errors: s.fieldErrors.get(view.id) ?? {} })),
    ...(s.standIn.homeView(viewer) ? { home: s.standIn.homeView(viewer) } : {}),
  };
}
