/** The one way a click's listener answers only the clicker: an ephemeral reply through its response_url. */
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Actor, PrivateReply } from './context.js';

/**
 * A PrivateReply over Bolt's `respond`: leaves the clicked message as it is, or
 * with `replace` swaps it for the reply (an ephemeral list the click made stale).
 */
export function privateReplyVia(respond: RespondFn, options: { replace?: boolean } = {}): PrivateReply {
  return async (m) => {
    await respond({
      response_type: 'ephemeral',
      replace_original: options.replace === true,
      text: m.text,
      blocks: m.blocks,
    });
  };
}

/** A PrivateReply as an ephemeral message in the actor's channel: for modal submissions, which have no message to answer. */
export function ephemeralReplyTo(slack: Pick<WebClient, 'chat'>, actor: Actor): PrivateReply {
  return async (m) => {
    await slack.chat.postEphemeral({
      channel: actor.channel,
      user: actor.user,
      text: m.text,
      blocks: m.blocks,
    });
  };
}
