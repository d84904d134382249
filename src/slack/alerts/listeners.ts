/**
 * An alert's own buttons (issue 29): What changed answers privately with the
 * changes applied to the object and its region in 24 h; Mute 1 h mutes the
 * object in that channel and says until when. Show and Logs are row actions.
 */
import type { Actor } from '../handlers/actor.js';
import type { BotContext } from '../handlers/context.js';
import { ALERT_ACTIONS } from '../ids.js';
import type { ActionRoute, ActionRoutes, ClickArgs } from '../listeners/action-routes.js';
import { clickActor } from '../listeners/actor.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import type { SlackMessage } from '../render/message.js';
import { renderMuted, renderWhatChanged } from '../render/watches.js';

type Ctx = Pick<BotContext, 'metrics' | 'watches' | 'clock'>;

/** A click on `action` whose answer (private) `answer` draws from the alert id in the button's value. */
function alertRoute(
  ctx: Ctx,
  action: string,
  answer: (actor: Actor, id: string) => Promise<SlackMessage>,
): ActionRoute {
  return ({ body, action: button, respond }: ClickArgs) => ({
    job: () => {
      const actor = clickActor(body);
      const reply = privateReplyVia(respond);
      return {
        name: `click ${action}`,
        actor,
        reply,
        run: async () => {
          await reply(await answer(actor, button.value ?? ''));
          return undefined;
        },
        count: (outcome) => ctx.metrics.interactions.inc({ action, outcome }),
      };
    },
  });
}

/** The routes of What changed and Mute 1 h. */
export function alertActionRoutes(ctx: Ctx): ActionRoutes {
  return {
    [ALERT_ACTIONS.whatChanged]: alertRoute(ctx, ALERT_ACTIONS.whatChanged, async (actor, id) =>
      renderWhatChanged(await ctx.watches.whatChanged(actor, id, ctx.clock.now())),
    ),
    [ALERT_ACTIONS.mute]: alertRoute(ctx, ALERT_ACTIONS.mute, async (actor, id) =>
      renderMuted(await ctx.watches.mute(actor, id, ctx.clock.now())),
    ),
  };
}
