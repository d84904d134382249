/**
 * "Share in channel" for private read answers: the button added to the
 * answer, the public message it becomes (attributed to whoever shared it),
 * and what the private answer turns into once shared (no button, so it
 * cannot be shared twice by mistake).
 */
import type { KnownBlock } from '@slack/types';
import { SHARE_ACTION } from '../ids.js';
import { escapeMrkdwn, LIMITS, truncate } from '../limits.js';
import { context, finish, mention } from './blocks.js';
import type { SlackMessage } from './message.js';

/** `answer` with a "Share in channel" button carrying `commandText`; unchanged when either would not fit. */
export function withShareButton(answer: SlackMessage, commandText: string): SlackMessage {
  if (commandText.length > LIMITS.buttonValue || answer.blocks.length >= LIMITS.messageBlocks) return answer;
  const share: KnownBlock = {
    type: 'actions',
    block_id: 'share',
    elements: [
      {
        type: 'button',
        action_id: SHARE_ACTION,
        text: { type: 'plain_text', text: 'Share in channel' },
        value: commandText,
      },
    ],
  };
  return { text: answer.text, blocks: [...answer.blocks, share] };
}

/**
 * The public copy of a read answer: its buttons left out (they act for the
 * person who asked), a last line naming who shared it and the command.
 */
export function sharedMessage(
  answer: SlackMessage,
  sharedBy: string,
  commandName: string,
  commandText: string,
): SlackMessage {
  const blocks = answer.blocks.filter((b) => b.type !== 'actions').slice(0, LIMITS.messageBlocks - 1);
  const command = `\`${escapeMrkdwn(truncate(`${commandName} ${commandText}`.replace(/`/g, 'ʼ'), 200))}\``;
  blocks.push(context(`Shared by ${mention(sharedBy)} · ${command}`));
  return finish(`${answer.text} (shared by ${mention(sharedBy)})`, blocks);
}

/** The private answer once shared (`answer` as read again, without the button), saying where it went. */
export function sharedNotice(answer: SlackMessage, channel: string): SlackMessage {
  const blocks = answer.blocks.slice(0, LIMITS.messageBlocks - 1);
  blocks.push(context(`:white_check_mark: You shared this in <#${channel}>.`));
  return finish(answer.text, blocks);
}
