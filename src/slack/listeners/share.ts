/** The "Share in channel" button of private read answers, on the one listener path. */
import type { BotContext } from '../handlers/context.js';
import { shareRead } from '../handlers/share.js';
import { SHARE_ACTION } from '../ids.js';
import type { ActionRoutes, ClickArgs } from './action-routes.js';
import { clickActor } from './actor.js';
import { privateReplyVia } from './private-reply.js';

/** The route of the share button. */
export function shareActionRoutes(ctx: BotContext): ActionRoutes {
  return {
    [SHARE_ACTION]: ({ body, action: button, respond }: ClickArgs) => ({
      job: () => {
        const actor = clickActor(body);
        const reply = privateReplyVia(respond);
        const container = body.container as { message_ts?: string } | undefined;
        const clickId = `${button.action_ts}:${body.trigger_id}`;
        return {
          name: 'click share',
          actor,
          reply,
          run: () =>
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
          count: (outcome) => ctx.metrics.interactions.inc({ action: 'read.share', outcome }),
        };
      },
    }),
  };
}
