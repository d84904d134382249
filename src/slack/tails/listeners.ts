/**
 * The buttons of live tails: Stop (value: the tail id) and "Tail logs"
 * (value: a TailStartValue), on the one listener path (acked first, the work
 * behind the ack, errors to the clicker privately).
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { BotContext } from '../handlers/context.js';
import { TAIL_ACTIONS } from '../ids.js';
import { clickActor } from '../listeners/actor.js';
import type { ClickArgs } from '../listeners/interactions.js';
import type { Listen } from '../listeners/listen.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import { startTailFromButton, stopTailFromButton } from './actions.js';

/** Registers the Stop and "Tail logs" buttons on `app`. */
export function registerTailActions(app: App, ctx: BotContext, listen: Listen): void {
  for (const [name, actionId] of Object.entries(TAIL_ACTIONS) as [keyof typeof TAIL_ACTIONS, string][]) {
    app.action<BlockAction<ButtonAction>>(
      actionId,
      listen('click', ({ body, action: button, respond }: ClickArgs) => ({
        job: () => {
          const message = body.message as { ts?: string; thread_ts?: string } | undefined;
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
                  ...(message?.thread_ts ? { threadTs: message.thread_ts } : {}),
                });
              return undefined;
            },
            count: (outcome) => ctx.metrics.interactions.inc({ action: `tail.${name}`, outcome }),
          };
        },
      })),
    );
  }
}
