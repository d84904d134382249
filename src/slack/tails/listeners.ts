/**
 * The buttons of live tails: Stop (value: the tail id) and "Tail logs"
 * (value: a TailStartValue), on the one listener path (acked first, the work
 * behind the ack, errors to the clicker privately).
 */

import type { BotContext } from '../handlers/context.js';
import { clickReplyVia } from '../handlers/private-reply.js';
import { startTailFromButton, stopTailFromButton } from '../handlers/tail-actions.js';
import { TAIL_ACTIONS } from '../ids.js';
import type { ActionRoutes, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { slotted } from '../routes/work.js';
import { threadOfMessage } from '../runtime/thread.js';

/** The routes of the Stop and "Tail logs" buttons, by action id. */
export function tailActionRoutes(ctx: BotContext): ActionRoutes {
  const routes: ActionRoutes = {};
  for (const [name, actionId] of Object.entries(TAIL_ACTIONS) as [keyof typeof TAIL_ACTIONS, string][]) {
    routes[actionId] = ({ body, action: button, respond }: ClickArgs) => ({
      work: () => {
        const message = body.message as { ts?: string } | undefined;
        const threadTs = threadOfMessage(body.message);
        const actor = clickActor(body, { withThread: true });
        const reply = clickReplyVia(ctx, body, respond);
        return {
          name: `click tail.${name}`,
          actor,
          reply,
          steps: slotted(async () => {
            if (name === 'stop') await stopTailFromButton(ctx, button.value ?? '', actor, reply);
            else
              await startTailFromButton(ctx, button.value ?? '', actor, {
                ...(message?.ts ? { ts: message.ts } : {}),
                ...(threadTs ? { threadTs } : {}),
              });
          }),
          tally: { counter: 'interactions', action: `tail.${name}` },
        };
      },
    });
  }
  return routes;
}
