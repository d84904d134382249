/**
 * The buttons of live tails: Stop (value: the tail id) and "Tail logs"
 * (value: a TailStartValue), on the one listener path (acked first, the work
 * behind the ack, errors to the clicker privately).
 */
import type { BotContext } from '../handlers/context.js';
import { TAIL_ACTIONS } from '../ids.js';
import type { ActionRoutes, ClickArgs } from '../listeners/action-routes.js';
import { clickActor } from '../listeners/actor.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import { threadOfMessage } from '../runtime/thread.js';
import { startTailFromButton, stopTailFromButton } from './actions.js';

/** The routes of the Stop and "Tail logs" buttons, by action id. */
export function tailActionRoutes(ctx: BotContext): ActionRoutes {
  const routes: ActionRoutes = {};
  for (const [name, actionId] of Object.entries(TAIL_ACTIONS) as [keyof typeof TAIL_ACTIONS, string][]) {
    routes[actionId] = ({ body, action: button, respond }: ClickArgs) => ({
      job: () => {
        const message = body.message as { ts?: string } | undefined;
        const threadTs = threadOfMessage(body.message);
        const actor = clickActor(body, { withThread: true });
        const reply = privateReplyVia(respond);
        return {
          name: `click tail.${name}`,
          actor,
          reply,
          run: async () => {
            if (name === 'stop') await stopTailFromButton(ctx, button.value ?? '', actor, reply);
            else
              await startTailFromButton(ctx, button.value ?? '', actor, {
                ...(message?.ts ? { ts: message.ts } : {}),
                ...(threadTs ? { threadTs } : {}),
              });
            return undefined;
          },
          count: (outcome) => ctx.metrics.interactions.inc({ action: `tail.${name}`, outcome }),
        };
      },
    });
  }
  return routes;
}
