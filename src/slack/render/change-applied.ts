/**
 * A change's message once its apply has ended: applied (its header saying
 * what the follow-up or guard saw, its result lines, guard lines and the
 * rollback offer), or ended without a clear answer (outcome unknown).
 */

import type { Change } from '../../changes/change.js';
import { outcomeKey, storedOutcome } from '../../changes/follow-outcome.js';
import { context, escapeFit, finish, mention, section, slackDate } from './blocks.js';
import { ERROR_MAX, fallback, people, top } from './change-frame.js';
import { type ChangeLinks, rollbackOffer } from './change-rollback-offer.js';
import { failureText } from './failure-text.js';
import { guardBlocks, guardTitle } from './guard.js';
import type { SlackMessage } from './message.js';
import { lineBlocks } from './preview-blocks.js';

/** The apply ended without a clear answer: say so, say where to look, and offer no button. */
export function unconfirmed(change: Change): SlackMessage {
  const { summary } = change.preview;
  const message = change.error ? failureText(change.error) : 'Could not confirm whether this took effect.';
  return finish(fallback('Outcome unknown', `${summary}: ${message}`), [
    ...top('Outcome unknown', summary),
    section(escapeFit(message, ERROR_MAX)),
    ...lineBlocks(change.preview.lines),
    context(`Apply ended ${slackDate(change.updatedAt)} without a clear answer · ${people(change)}`),
  ]);
}

export function succeeded(change: Change, links: ChangeLinks): SlackMessage {
  const summary = change.result?.summary ?? change.preview.summary;
  const outcome = storedOutcome(change.result?.facts);
  const title =
    guardTitle(change) ?? (outcome ? FOLLOW_TITLE[outcomeKey(outcome)] : doneTitle(change.result?.facts));
  // A follow-up that ended badly or without a verdict is the news: it leads, with the requester named.
  const ending =
    outcome && outcome.kind !== 'done'
      ? [section(`${mention(change.requester)} ${escapeFit(outcome.message, ERROR_MAX)}`)]
      : outcome?.evidence
        ? [section(escapeFit(outcome.message, ERROR_MAX))]
        : [];
  return finish(fallback(title, summary), [
    ...top(title, summary),
    ...ending,
    // Ids the API made (a promotion's name, an image's internal name) stay in the audit record:
    // the result says what happened in the words people use.
    ...lineBlocks((change.result?.lines ?? []).filter((l) => !l.secondary)),
    context(`Applied ${slackDate(change.updatedAt)} · ${people(change)}`),
    // Guarded rollouts (issue 42): until when it watches, or how its guard ended.
    ...guardBlocks(change),
    ...rollbackOffer(change, links),
  ]);
}

/** The header once the follow-up ended: what it saw, not only that the apply went through. */
const FOLLOW_TITLE: Record<ReturnType<typeof outcomeKey>, string> = {
  done: 'Done',
  synced: 'Synced, not verified',
  timeout: 'Applied, outcome not seen',
  failed: 'Applied, then failed',
};

// An accepted promotion is Done only once the target lists the copy (housekeeping keeps looking);
// a rollout is not Done until its follow-up has seen it.
function doneTitle(facts: Record<string, unknown> | undefined): string {
  const visible = facts?.visible;
  if (visible === false) return 'Requested, not yet visible';
  if (visible === 'never') return 'Never appeared';
  if (facts?.following === 'rollout') return 'Applied, rollout followed';
  // A release rollback that stopped at a refusal: its lines say what was and was not rolled back.
  if (facts?.partial === true) return 'Partly done';
  return 'Done';
}
