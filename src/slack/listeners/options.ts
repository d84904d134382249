/**
 * Type-ahead selects (`external_select` in the modals): Slack asks for the
 * options matching what the person typed and shows whatever the ack carries,
 * so the read happens before the ack, inside Slack's 3 seconds. The action
 * id names the list and its scope (ids.ts); the read goes through the
 * domain's form queries as the person using the form, so it is authorized as
 * the read command showing that list would be. A refusal answers no options:
 * Slack has no place in a type-ahead for a sentence, and the form's own
 * reload and submission say why.
 */
import type { App } from '@slack/bolt';
import type { Asker } from '../../changes/authorize.js';
import { UserError } from '../../errors/user-error.js';
import { ReadShedError } from '../../read-budget/read-budget.js';
import type { BotContext } from '../handlers/context.js';
import { readSuggestActionId, SUGGEST_ACTION_PREFIX } from '../ids.js';
import { readMetadata } from '../modals/metadata.js';
import { LIMITS, truncate } from '../render/limits.js';
import { submitActor } from './actor.js';

type Options = { options: { text: { type: 'plain_text'; text: string }; value: string }[] };

/**
 * Slack drops a type-ahead answer after 3 s: past this long the person gets no
 * options now, and the read goes on to fill the cache for their next key.
 */
export const SUGGEST_ANSWER_MS = 2_500;

/** `options`, or none once SUGGEST_ANSWER_MS of `clock` have passed ('late'). */
async function withinAnswerTime(
  clock: BotContext['clock'],
  options: Promise<Options>,
): Promise<Options | 'late'> {
  const timeout = new AbortController();
  try {
    return await Promise.race([
      options,
      clock.sleep(SUGGEST_ANSWER_MS, timeout.signal).then(() => 'late' as const),
    ]);
  } finally {
    timeout.abort();
  }
}

/** What a block_suggestion request carries that the answer depends on. */
interface SuggestionRequest {
  action_id: string;
  value: string;
  user: { id: string; team_id?: string };
  team?: { id: string } | null;
  view?: { private_metadata?: string };
}

/** Options for one type-ahead request from `asker`, as Slack's ack body wants them. */
export async function suggestOptions(
  ctx: Pick<BotContext, 'reads'>,
  asker: Asker,
  actionId: string,
  query: string,
): Promise<Options> {
  const named = readSuggestActionId(actionId);
  if (!named) return { options: [] };
  const found = await ctx.reads
    .formsFor(asker)
    .suggest(named.source, named.scope, query, LIMITS.selectOptions);
  return {
    options: found
      .filter((s) => s.value.length <= LIMITS.optionValue)
      .map((s) => ({
        text: { type: 'plain_text', text: truncate(s.label, LIMITS.optionText) },
        value: s.value,
      })),
  };
}

/** Who asks: the person typing, in the channel the form was opened from; undefined outside a form of ours. */
function suggestionAsker(payload: SuggestionRequest): Asker | undefined {
  const meta = payload.view?.private_metadata ? readMetadata(payload.view.private_metadata) : undefined;
  return meta && submitActor(payload.user, payload.team?.id, meta);
}

/** Answers the modals' type-ahead selects on `app`. */
export function registerOptions(app: App, ctx: BotContext): void {
  app.options(new RegExp(`^${SUGGEST_ACTION_PREFIX}`), async ({ payload, ack }) => {
    const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'options' });
    const request = payload as unknown as SuggestionRequest;
    try {
      const asker = suggestionAsker(request);
      const answer = asker
        ? await withinAnswerTime(ctx.clock, suggestOptions(ctx, asker, request.action_id, request.value))
        : { options: [] };
      await ack(answer === 'late' ? { options: [] } : answer);
      ctx.metrics.interactions.inc({
        action: 'options',
        outcome: !asker ? 'ignored' : answer === 'late' ? 'late' : 'answered',
      });
    } catch (err) {
      if (err instanceof ReadShedError) {
        // Counted in harbor_requests_shed_total by the budget; the next keystroke asks again.
        ctx.metrics.interactions.inc({ action: 'options', outcome: 'shed' });
        await ack({ options: [] });
        return;
      }
      if (err instanceof UserError) {
        // A refusal (or a list that is not there) is an answer, not a fault: no options, counted as what it is.
        ctx.metrics.interactions.inc({ action: 'options', outcome: err.kind });
        await ack({ options: [] });
        return;
      }
      // Slack shows an empty list and cannot show a message here; the log says why.
      ctx.metrics.errors.inc({ where: 'options' });
      ctx.logger.error('type-ahead options failed', { error: err, actionId: request.action_id });
      await ack({ options: [] });
    } finally {
      stopAck();
    }
  });
}
