/** The "Share in channel" button of private read answers, on the one listener path. */

import type { BotContext } from '../handlers/context.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import { shareRead } from '../handlers/share.js';
import { SHARE_ACTION } from '../ids.js';
import type { ActionRoutes, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { slotted } from '../routes/work.js';

/** The route of the share button. */
export function shareActionRoutes(ctx: BotContext): ActionRoutes {
  return {
    [SHARE_ACTION]: ({ body, action: button, respond }: ClickArgs) => ({
      work: () => {
        const actor = clickActor(body);
        const reply = privateReplyVia(respond);
        const container = body.container as { message_ts?: string } | undefined;
        const clickId = `${button.action_ts}:${body.trigger_id}`;
        return {
          name: 'click share',
          actor,
          reply,
          steps: slotted(() =>
            shareRead(
              ctx,
              button.value ?? '',
              actor,
              // Without the message's ts, every click is its own (Slack always sends it for message buttons).
              { messageTs: container?.message_ts ?? clickId, clickId },
              reply,
              async (m) => {
                await respond({ replace_original: true, text: m.text, blocks: m.blocks });
              },
            ),
          ),
          tally: { counter: 'interactions', action: 'read.share' },
        };
      },
    }),
  };
}
