/** The one way a click's listener answers only the clicker: an ephemeral reply through its response_url. */
import type { RespondFn } from '@slack/bolt';
import type { PrivateReply } from '../handlers/context.js';

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
