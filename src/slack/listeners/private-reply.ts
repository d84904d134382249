/** The one way a click's listener answers only the clicker: an ephemeral reply through its response_url. */
import type { RespondFn } from '@slack/bolt';
import type { PrivateReply } from '../handlers/context.js';

/** A PrivateReply over Bolt's `respond`, leaving the clicked message as it is. */
export function privateReplyVia(respond: RespondFn): PrivateReply {
  return async (m) => {
    await respond({ response_type: 'ephemeral', replace_original: false, text: m.text, blocks: m.blocks });
  };
}
