/**
 * How a listener answers only the person who acted: an ephemeral reply through
 * the click's response_url, an ephemeral message in a channel (submissions),
 * or a notice on their Home tab (clicks there carry neither).
 */
import type { BlockAction, RespondFn } from '@slack/bolt';
import type { SlackCalls } from '../runtime/slack-calls.js';
import type { Actor, BotContext, PrivateReply } from './context.js';

/**
 * The private answer to a click wherever the button sat: Slack sends a click
 * on the Home tab without a response_url (Bolt gives no `respond` then), so
 * that person is answered on their Home tab, where they are looking.
 */
export function clickReplyVia(
  ctx: Pick<BotContext, 'homeNotices'>,
  body: Pick<BlockAction, 'user' | 'team'> & { view?: { type?: string } },
  respond: RespondFn | undefined,
  options: { replace?: boolean } = {},
): PrivateReply {
  if (respond) return privateReplyVia(respond, options);
  const team = body.user.team_id ?? body.team?.id ?? '';
  return (m) => ctx.homeNotices.tell(body.user.id, team, m);
}

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
export function ephemeralReplyTo(slack: Pick<SlackCalls, 'chat'>, actor: Actor): PrivateReply {
  return async (m) => {
    await slack.chat.postEphemeral({
      channel: actor.channel,
      user: actor.user,
      text: m.text,
      blocks: m.blocks,
    });
  };
}
