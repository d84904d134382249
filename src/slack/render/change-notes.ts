/**
 * Notes laid over any state of a change's message: that it breaks a freeze
 * and why, when a scheduled change applies (both under the summary), and
 * that recording is pending while the bot's database is away (at the end).
 */

import type { Change } from '../../changes/change.js';
import { LIMITS } from '../limits.js';
import { context, escapeFit, finish, section } from './blocks.js';
import { freezeLine } from './freezes.js';
import type { SlackMessage } from './message.js';
import { scheduleNote } from './scheduled.js';

/**
 * A change requested with `--break-glass` says in every state of its
 * message (preview, waiting, applied) that it breaks a freeze: which, and
 * the reason its requester gave (issue 41). It goes under the summary.
 */
export function withBrokenFreeze(change: Change, message: SlackMessage): SlackMessage {
  if (!change.breakGlass) return message;
  const { reason, freeze } = change.breakGlass;
  const note = section(
    `:rotating_light: *Breaks a freeze.* ${freezeLine(freeze)}\n*Why it cannot wait:* ${escapeFit(reason, 500)}${
      change.status === 'awaiting_approval'
        ? '\nIt needs the break-glass approvers, never its requester.'
        : ''
    }`,
  );
  const blocks = [...message.blocks.slice(0, 2), note, ...message.blocks.slice(2)];
  return finish(`${message.text} (breaks a freeze)`, blocks.slice(0, LIMITS.messageBlocks));
}

/** A scheduled change's preview says when it applies, under the summary (render/scheduled.ts). */
export function withSchedule(change: Change, message: SlackMessage): SlackMessage {
  const note =
    change.status === 'pending' || change.status === 'awaiting_approval' ? scheduleNote(change) : undefined;
  if (!note) return message;
  const blocks = [...message.blocks.slice(0, 2), section(note), ...message.blocks.slice(2)];
  return finish(`${message.text} (scheduled)`, blocks.slice(0, LIMITS.messageBlocks));
}

/**
 * The bot's database failed after the hosting API answered: what the message
 * shows happened, and it says the record follows (never "try again", which
 * would repeat a write that landed).
 */
export function withRecordingPending(message: SlackMessage): SlackMessage {
  const note = context(
    "The hosting API has answered; recording is pending: the bot's database is unavailable just now, " +
      'and this message will update once it is back. Do not request this again.',
  );
  return finish(message.text, [...message.blocks.slice(0, LIMITS.messageBlocks - 1), note]);
}
