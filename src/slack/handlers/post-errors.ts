/**
 * The one home for what a refused Slack post means to the user. A flow that
 * must post where the command was typed (a change preview, a release
 * message) and cannot, because the bot is not in the channel, says so and
 * how to fix it; any other failure stays an internal error.
 */
import { UserError } from '../../errors/user-error.js';

/** Whether Slack refused a post because the bot is not in (or cannot see) the channel. */
export function notInChannel(err: unknown): boolean {
  const code = (err as { data?: { error?: string } }).data?.error;
  return code === 'not_in_channel' || code === 'channel_not_found';
}

/**
 * The error to throw when posting in the channel failed: for a channel the
 * bot is not in, a UserError saying what did not happen (`consequence`,
 * e.g. "nobody could confirm the change; nothing was changed") and how to
 * invite it; otherwise the error as it came.
 */
export function postFailure(err: unknown, consequence: string): Error {
  if (notInChannel(err)) {
    return new UserError(
      `I cannot post in this channel, so ${consequence}. Invite me with \`/invite @Harbormaster\` and run the command again.`,
      'slack',
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}
