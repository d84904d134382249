/**
 * Type-ahead selects (`external_select` in the modals): Slack asks for the
 * options matching what the person typed and shows whatever the ack carries,
 * so the read happens before the ack, inside Slack's 3 seconds. The action
 * id names the list and its scope (ids.ts); the read goes through the
 * domain's form queries like every other form choice.
 */
import type { App } from '@slack/bolt';
import type { BotContext } from '../handlers/context.js';
import { readSuggestActionId, SUGGEST_ACTION_PREFIX } from '../ids.js';
import { LIMITS, truncate } from '../render/limits.js';

/** Options for one type-ahead request, as Slack's ack body wants them. */
export async function suggestOptions(
  ctx: Pick<BotContext, 'reads'>,
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

/** Answers the modals' type-ahead selects on `app`. */
export function registerOptions(app: App, ctx: BotContext): void {
  app.options(new RegExp(`^${SUGGEST_ACTION_PREFIX}`), async ({ payload, ack }) => {
    const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'options' });
    try {
      await ack(await suggestOptions(ctx, payload.action_id, payload.value));
    } catch (err) {
      // Slack shows an empty list and cannot show a message here; the log says why.
      ctx.metrics.errors.inc({ where: 'options' });
      ctx.logger.error('type-ahead options failed', { error: err, actionId: payload.action_id });
      await ack({ options: [] });
    } finally {
      stopAck();
    }
  });
}
