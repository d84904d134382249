/**
 * An alert's own buttons (issue 29): What changed answers privately with the
 * changes applied to the object and its region in 24 h; Mute 1 h mutes the
 * object in that channel and says until when. Show and Logs are row actions.
 */
import type { Actor } from '../handlers/actor.js';
import type { BotContext } from '../handlers/context.js';
import { placed } from '../handlers/placed.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import { ALERT_ACTIONS } from '../ids.js';
import type { SlackMessage } from '../render/message.js';
import { renderMuted, renderWhatChanged } from '../render/watches.js';
import type { ActionRoute, ActionRoutes, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { slotted } from '../routes/work.js';

type Ctx = Pick<BotContext, 'watches' | 'clock' | 'logger' | 'store'>;

/** A click on `action` whose private answer `answer` draws from the alert id in the button's value. */
function alertRoute(
  action: string,
  answer: (actor: Actor, id: string) => Promise<SlackMessage>,
): ActionRoute {
  return ({ body, action: button, respond }: ClickArgs) => ({
    work: () => {
      const actor = clickActor(body);
      const reply = privateReplyVia(respond);
      return {
        name: `click ${action}`,
        actor,
        reply,
        steps: slotted(async () => {
          await reply(await answer(actor, button.value ?? ''));
        }),
        tally: { counter: 'interactions', action },
      };
    },
  });
}

/** The routes of What changed and Mute 1 h. */
export function alertActionRoutes(ctx: Ctx): ActionRoutes {
  return {
    [ALERT_ACTIONS.whatChanged]: alertRoute(ALERT_ACTIONS.whatChanged, async (actor, id) =>
      placedWhatChanged(ctx, await ctx.watches.whatChanged(actor, id, ctx.clock.now())),
    ),
    [ALERT_ACTIONS.mute]: alertRoute(ALERT_ACTIONS.mute, async (actor, id) =>
      renderMuted(await ctx.watches.mute(actor, id, ctx.clock.now())),
    ),
  };
}

/** What changed, its changes linked to their messages. */
async function placedWhatChanged(ctx: Ctx, w: Parameters<typeof renderWhatChanged>[0]) {
  return renderWhatChanged({ ...w, changes: await placed(ctx, w.changes) });
}
