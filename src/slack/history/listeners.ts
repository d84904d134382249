/** The history answer's "Older" button: replaces the private list with the next page. */

import { historyPage } from '../../changes/history-query.js';
import type { BotContext } from '../handlers/context.js';
import { placedPage } from '../handlers/placed.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import { HISTORY_ACTIONS, type HistoryCursor } from '../ids.js';
import { renderHistory } from '../render/history.js';
import type { ActionRoutes, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { slotted } from '../routes/work.js';

/** The route of the history paging button. */
export function historyActionRoutes(ctx: Pick<BotContext, 'logger' | 'metrics' | 'store'>): ActionRoutes {
  return {
    [HISTORY_ACTIONS.older]: ({ body, action, respond }: ClickArgs) => ({
      work: () => {
        const actor = clickActor(body);
        return {
          name: `click ${HISTORY_ACTIONS.older}`,
          actor,
          reply: privateReplyVia(respond),
          steps: slotted(async () => {
            const cursor = readCursor(action.value ?? '');
            const page = await placedPage(
              ctx,
              await historyPage(ctx.store, { workspace: actor.team, ...cursor }),
            );
            await privateReplyVia(respond, { replace: true })(renderHistory(page, cursor.filter, true));
          }),
          tally: { counter: 'interactions', action: HISTORY_ACTIONS.older },
        };
      },
    }),
  };
}

// The button's value comes back from Slack: anything but a cursor restarts from the newest.
function readCursor(value: string): Partial<HistoryCursor> {
  try {
    const raw = JSON.parse(value) as Partial<HistoryCursor>;
    return {
      ...(typeof raw.before === 'number' ? { before: raw.before } : {}),
      ...(typeof raw.filter === 'string' && raw.filter ? { filter: raw.filter } : {}),
    };
  } catch {
    return {};
  }
}
