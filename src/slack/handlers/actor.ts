/**
 * Who acted and how to answer them privately: the two shapes every flow
 * shares. A leaf (it imports only a renderer's type), so the flows and the
 * release threads can use them without importing each other.
 */
import type { Asker } from '../../changes/authorize.js';
import type { ModalMetadata } from '../ids.js';
import type { SlackMessage } from '../render/message.js';

/** Who acted, where: the parts of a Slack payload handlers need. */
export interface Actor {
  user: string;
  team: string;
  channel: string;
  channelName?: string;
  /** The thread the action came from, when it came from one. */
  threadTs?: string;
}

/** Answers only the acting user sees (response_url or chat.postEphemeral). */
export type PrivateReply = (message: SlackMessage) => Promise<void>;

/** Notes shown to one person on top of their Home tab: where a click there is answered. */
export interface HomeNotices {
  /** Shows `message` on `user`'s Home tab (workspace `team`) for a while, redrawing it now. */
  tell(user: string, team: string, message: SlackMessage): Promise<void>;
}

/**
 * Who a form reads for: the person using it, in the channel it was opened
 * from (where the preview goes), so its lists are judged as that person's
 * read commands there would be.
 */
export function formAsker(person: Pick<Asker, 'user' | 'team'>, meta: Pick<ModalMetadata, 'channel'>): Asker {
  return { user: person.user, team: person.team, channel: meta.channel };
}
