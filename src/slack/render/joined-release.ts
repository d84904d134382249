/**
 * The private answer to a change that joined an open release: its preview
 * went into the release thread, perhaps a screen above what the person sees,
 * so the command is answered where it was typed, with a link to the preview.
 */
import type { Change } from '../../changes/change.js';
import { escapeMrkdwn } from '../limits.js';
import type { SlackMessage } from './message.js';
import { changeLink, linked } from './permalink.js';

/** "Joined release *title*: its preview is in the release thread." with the thread linked. */
export function renderJoinedRelease(title: string, change: Change): SlackMessage {
  const text = `Joined release *${escapeMrkdwn(title)}*: its preview is in ${linked('the release thread', changeLink(change))}.`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}
