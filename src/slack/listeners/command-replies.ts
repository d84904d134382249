/**
 * A slash command's private answers through its response_url. When the
 * answer is not ready within `afterMs` (the hosting API is slow), the user
 * sees "Working on it…" at once; the answer then replaces that notice and
 * names its command, so a late answer or error is never mistaken for the
 * reply to whatever the user typed next. When the answer went elsewhere (a
 * preview in the channel, a modal), the notice is removed.
 */
import type { RespondArguments } from '@slack/bolt';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { PrivateReply } from '../handlers/context.js';
import { renderWorking, tiedToCommand } from '../render/working.js';

/** Posts to the command's response_url (Bolt's `respond`). */
export type Respond = (message: RespondArguments) => Promise<unknown>;

interface CommandReplies {
  /** The handler's PrivateReply: the first answer after a notice replaces it. */
  reply: PrivateReply;
  /** The work is over: stops the timer and removes a notice no answer replaced. */
  finish(): Promise<void>;
}

interface CommandRepliesOptions {
  /** The command as typed (`/harbor vessels dev`), named in the notice and in late answers. */
  command: string;
  clock: Clock;
  /** How long an answer may take before the notice shows (about a second). */
  afterMs: number;
  logger: Logger;
}

/** Starts the notice timer now (call it when the command is acked). */
export function commandReplies(respond: Respond, o: CommandRepliesOptions): CommandReplies {
  const timer = new AbortController();
  let answered = false;
  /** Set once the notice is on its way; answers wait for it, so they land after it and replace it. */
  let notice: Promise<boolean> | undefined;
  /** The notice is shown and nothing has replaced it yet. */
  let replaceable = false;

  o.clock.sleep(o.afterMs, timer.signal).then(
    () => {
      if (answered) return;
      const working = renderWorking(o.command);
      notice = respond({ response_type: 'ephemeral', text: working.text, blocks: working.blocks }).then(
        () => {
          replaceable = true;
          return true;
        },
        (error: unknown) => {
          o.logger.warn('could not show "Working on it"', { error });
          return false;
        },
      );
    },
    () => undefined,
  );

  return {
    reply: async (message) => {
      answered = true;
      timer.abort();
      const shown = notice ? await notice : false;
      if (shown && replaceable) {
        replaceable = false;
        const late = tiedToCommand(message, o.command);
        await respond({
          response_type: 'ephemeral',
          replace_original: true,
          text: late.text,
          blocks: late.blocks,
        });
        return;
      }
      await respond({ response_type: 'ephemeral', text: message.text, blocks: message.blocks });
    },
    finish: async () => {
      answered = true;
      timer.abort();
      if (!notice || !(await notice) || !replaceable) return;
      replaceable = false;
      await respond({ delete_original: true }).catch((error: unknown) =>
        o.logger.warn('could not remove "Working on it"', { error }),
      );
    },
  };
}
