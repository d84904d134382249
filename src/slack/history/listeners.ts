/** The history answer's "Older" button: replaces the private list with the next page. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { BotContext } from '../handlers/context.js';
import { reportError } from '../handlers/report-error.js';
import { HISTORY_ACTIONS, type HistoryCursor } from '../ids.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import { renderHistory } from '../render/history.js';
import { historyPage } from './query.js';

/** Registers the history paging button on `app`. */
export function registerHistoryActions(app: App, ctx: BotContext): void {
  app.action<BlockAction<ButtonAction>>(HISTORY_ACTIONS.older, async ({ ack, body, action, respond }) => {
    await ack();
    const reply = privateReplyVia(respond);
    await ctx.tasks.run('click history.older', async () => {
      try {
        const cursor = readCursor(action.value ?? '');
        const team = body.team?.id ?? body.user.team_id ?? '';
        const page = await historyPage(ctx.store, { workspace: team, ...cursor });
        await privateReplyVia(respond, { replace: true })(renderHistory(page, cursor.filter, true));
      } catch (err) {
        await reportError(ctx, reply, err, 'click history.older');
      }
    });
  });
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
