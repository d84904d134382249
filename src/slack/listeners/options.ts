/**
 * Type-ahead selects (`external_select` in the modals): Slack asks for the
 * options matching what the person typed and shows whatever the ack carries,
 * so the read happens before the ack, inside Slack's 3 seconds. The action
 * id names the list and its scope (ids.ts); the read goes through the
 * domain's form queries as the person using the form, so it is authorized as
 * the read command showing that list would be, and through the API read
 * budget (coalesced, cached for seconds, bounded). A refusal answers no
 * options: Slack has no place in a type-ahead for a sentence, and the form's
 * own reload and submission say why.
 */
import type { App } from '@slack/bolt';
import type { Asker } from '../../changes/authorize.js';
import { UserError } from '../../errors/user-error.js';
import { ReadShedError } from '../../read-budget/read-budget.js';
import type { BotContext } from '../handlers/context.js';
import { readSuggestActionId, SUGGEST_ACTION_PREFIX } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';
import { readMetadata } from '../modals/metadata.js';
import { submitActor } from '../routes/actor.js';
import type { Listen } from './listen.js';

type Options = { options: { text: { type: 'plain_text'; text: string }; value: string }[] };

/**
 * Slack drops a type-ahead answer after 3 s: past this long the person gets no
 * options now, and the read goes on to fill the cache for their next key.
 */
export const SUGGEST_ANSWER_MS = 2_500;

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

/** Who asks: the person typing, in the channel the form was opened from; undefined outside a form of ours. */
function suggestionAsker(payload: SuggestionRequest): Asker | undefined {
  const meta = payload.view?.private_metadata ? readMetadata(payload.view.private_metadata) : undefined;
  return meta && submitActor(payload.user, payload.team?.id, meta);
}

/**
 * The answer to one request, counted by what it was: answered, late, shed
 * (the read budget was full), or a UserError's kind (a refusal is an answer,
 * not a fault). Only faults reach the listener path, which logs and counts
 * them as errors.
 */
async function answer(ctx: BotContext, request: SuggestionRequest): Promise<Options> {
  const count = (outcome: string) => ctx.metrics.interactions.inc({ action: 'options', outcome });
  const asker = suggestionAsker(request);
  if (!asker) {
    count('ignored');
    return { options: [] };
  }
  try {
    const found = await withinAnswerTime(
      ctx.clock,
      suggestOptions(ctx, asker, request.action_id, request.value),
    );
    count(found === 'late' ? 'late' : 'answered');
    return found === 'late' ? { options: [] } : found;
  } catch (err) {
    // Counted in harbor_requests_shed_total by the budget; the next keystroke asks again.
    if (err instanceof ReadShedError) count('shed');
    else if (err instanceof UserError) count(err.kind);
    else throw err;
    return { options: [] };
  }
}

/** Answers the modals' type-ahead selects on `app`, on the one listener path (answered in the ack). */
export function registerOptions(app: App, ctx: BotContext, listen: Listen): void {
  app.options(
    new RegExp(`^${SUGGEST_ACTION_PREFIX}`),
    listen.options(
      ({ payload }: { payload: SuggestionRequest }) => answer(ctx, payload),
      // Slack shows an empty list and cannot show a message here; the log says why.
      { options: [] },
      ({ payload }) => ({ actionId: payload.action_id }),
    ),
  );
}
