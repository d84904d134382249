/**
 * Type-ahead selects (`external_select` in the modals): Slack asks for the
 * options matching what the person typed and shows whatever the ack carries,
 * so the read happens before the ack, inside Slack's 3 seconds. The action
 * id names the list and its scope (ids.ts); the read goes through the
 * domain's form queries like every other form choice.
 */
import type { App } from '@slack/bolt';
import type { BotContext, TailCtx } from '../handlers/context.js';
import { readSuggestActionId, SUGGEST_ACTION_PREFIX } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';
import type { Listen } from './listen.js';

/** Options for one type-ahead request, as Slack's ack body wants them. */
export async function suggestOptions(
  ctx: TailCtx,
  actionId: string,
  query: string,
): Promise<{ options: { text: { type: 'plain_text'; text: string }; value: string }[] }> {
  const named = readSuggestActionId(actionId);
  if (!named) return { options: [] };
  const found = await ctx.reads.forms.suggest(named.source, named.scope, query, LIMITS.selectOptions);
  return {
    options: found
      .filter((s) => s.value.length <= LIMITS.optionValue)
      .map((s) => ({
        text: { type: 'plain_text', text: truncate(s.label, LIMITS.optionText) },
        value: s.value,
      })),
  };
}

/** Answers the modals' type-ahead selects on `app`, on the one listener path (answered in the ack). */
export function registerOptions(app: App, ctx: BotContext, listen: Listen): void {
  app.options(
    new RegExp(`^${SUGGEST_ACTION_PREFIX}`),
    listen.options(
      ({ payload }: { payload: { action_id: string; value: string } }) =>
        suggestOptions(ctx, payload.action_id, payload.value),
      // Slack shows an empty list and cannot show a message here; the log says why.
      { options: [] },
      ({ payload }) => ({ actionId: payload.action_id }),
    ),
  );
}
