/** The history answer's "Older" button: replaces the private list with the next page. */
import type { BotContext } from '../handlers/context.js';
import { HISTORY_ACTIONS, type HistoryCursor } from '../ids.js';
import type { ActionRoutes, ClickArgs } from '../listeners/action-routes.js';
import { clickActor } from '../listeners/actor.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import { renderHistory } from '../render/history.js';
import { historyPage } from './query.js';

/** The route of the history paging button. */
export function historyActionRoutes(ctx: Pick<BotContext, 'metrics' | 'store'>): ActionRoutes {
  return {
    [HISTORY_ACTIONS.older]: ({ body, action, respond }: ClickArgs) => ({
      job: () => {
        const actor = clickActor(body);
        return {
          name: `click ${HISTORY_ACTIONS.older}`,
          actor,
          reply: privateReplyVia(respond),
          run: async () => {
            const cursor = readCursor(action.value ?? '');
            const page = await historyPage(ctx.store, { workspace: actor.team, ...cursor });
            await privateReplyVia(respond, { replace: true })(renderHistory(page, cursor.filter, true));
            return undefined;
          },
          count: (outcome) => ctx.metrics.interactions.inc({ action: HISTORY_ACTIONS.older, outcome }),
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
