/**
 * What a slow command shows while its answer is on the way, and how a late
 * answer names the command it belongs to (so a failure that arrives after
 * the user has typed something else is not read as that one's answer).
 */
import type { KnownBlock } from '@slack/types';
import { escapeMrkdwn, LIMITS, truncate } from '../limits.js';
import type { SlackMessage } from './message.js';

/** The command as the user typed it, safe inside inline code. */
function asCode(command: string): string {
  // A backtick would end the code span early; the look-alike keeps the text readable.
  return `\`${escapeMrkdwn(truncate(command.replace(/`/g, 'ʼ').replace(/\s+/g, ' ').trim(), 200))}\``;
}

/** "Working on it…" for `command`, shown once its answer takes longer than a moment. */
export function renderWorking(command: string): SlackMessage {
  const text = `Working on it… ${asCode(command)}`;
  return { text, blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }] };
}

/** `message` with a last line naming the command it answers. */
export function tiedToCommand(message: SlackMessage, command: string): SlackMessage {
  const note: KnownBlock = {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `In answer to ${asCode(command)}` }],
  };
  if (message.blocks.length >= LIMITS.messageBlocks) return message;
  return { text: message.text, blocks: [...message.blocks, note] };
}
