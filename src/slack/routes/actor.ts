/** Who acted, where: read once from each kind of Slack payload. */
import type { BlockAction, SlashCommand } from '@slack/bolt';
import type { Actor } from '../handlers/context.js';
import type { ModalMetadata } from '../ids.js';
import { threadOfMessage } from '../runtime/thread.js';

/** The user of a slash command, in the channel it was typed in. */
export function commandActor(command: SlashCommand): Actor {
  return {
    user: command.user_id,
    team: command.team_id,
    channel: command.channel_id,
    channelName: command.channel_name,
  };
}

/** The clicker of a button, in the channel (and thread, when `withThread`) of the message it sits on. */
export function clickActor(body: BlockAction, options: { withThread?: boolean } = {}): Actor {
  const threadTs = options.withThread ? threadOfMessage(body.message) : undefined;
  return {
    user: body.user.id,
    // The clicker's own workspace: in a shared channel or an org-wide install, body.team may be another's.
    team: body.user.team_id ?? body.team?.id ?? '',
    channel: body.channel?.id ?? '',
    ...(body.channel?.name ? { channelName: body.channel.name } : {}),
    ...(threadTs ? { threadTs } : {}),
  };
}

/** The submitter of a modal, placed where the modal's metadata says it was opened. */
export function submitActor(
  user: { id: string; team_id?: string },
  team: string | undefined,
  meta: ModalMetadata,
): Actor {
  return {
    user: user.id,
    team: team ?? user.team_id ?? '',
    channel: meta.channel,
    ...(meta.channelName ? { channelName: meta.channelName } : {}),
    ...(meta.threadTs ? { threadTs: meta.threadTs } : {}),
  };
}
