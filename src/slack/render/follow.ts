/**
 * A thread reply for one step in the aftermath of an applied change (a
 * vessel getting scheduled, failing, or the watch giving up). A Vessel the
 * change created can be tailed from there with one click.
 */
import type { KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import type { FollowEvent } from '../../changes/operation.js';
import { describe } from '../../operations/index.js';
import { TAIL_ACTIONS, type TailStartValue } from '../ids.js';
import { LIMITS } from '../limits.js';
import { context, escapeFit, finish, mention, section } from './blocks.js';
import { actions } from './buttons.js';
import type { SlackMessage } from './message.js';

const PREFIX: Record<FollowEvent['kind'], string> = {
  progress: ':hourglass_flowing_sand: Progress',
  done: ':white_check_mark: Done',
  failed: ':x: Failed',
  timeout: ':warning: Stopped watching',
};

/**
 * What a "Tail logs" button on this follow-up step should follow: the Vessel
 * the change created, once it is placed (or the watch gave up on it), in the
 * change's release thread if it has one. Undefined when there is nothing to tail.
 */
export function tailOffer(change: Change, event: FollowEvent): TailStartValue | undefined {
  if (!event.vessel || describe(change.operation).createsVessels !== true) return undefined;
  if (event.kind !== 'done' && event.kind !== 'timeout') return undefined;
  return {
    environment: event.vessel.environment,
    vessel: event.vessel.name,
    ...(change.origin.releaseId ? { releaseId: change.origin.releaseId } : {}),
  };
}

/**
 * One follow-up step as a short thread message, naming the vessel it is about
 * (and offering its logs). A failed or inconclusive end @mentions `requester`:
 * a thread reply alone notifies nobody.
 */
export function renderFollowEvent(
  event: FollowEvent,
  tail?: TailStartValue,
  requester?: string,
): SlackMessage {
  const prefix =
    event.kind === 'done' && event.evidence === 'synced'
      ? ':large_blue_circle: Synced, not verified'
      : PREFIX[event.kind];
  const who =
    requester && (event.kind === 'failed' || event.kind === 'timeout') ? `${mention(requester)} ` : '';
  const text = `${who}${prefix}: ${escapeFit(event.message, 2500)}`;
  const blocks: KnownBlock[] = [section(text)];
  if (event.vessel) {
    blocks.push(
      context(
        `Vessel \`${escapeFit(event.vessel.name, 200)}\` in environment \`${escapeFit(event.vessel.environment, 200)}\``,
      ),
    );
  }
  const value = tail && JSON.stringify(tail);
  if (value && value.length <= LIMITS.buttonValue) {
    blocks.push(
      actions([
        {
          type: 'button',
          action_id: TAIL_ACTIONS.start,
          text: { type: 'plain_text', text: 'Tail logs' },
          value,
        },
      ]),
    );
  }
  return finish(text, blocks);
}

/**
 * Said in the thread when housekeeping resumes a follow-up that stopped before its end (its
 * replica restarted or was deployed, or the store failed under it): the steps start over from
 * what the API shows now, so one already posted may come again.
 */
export function renderFollowResumed(): SlackMessage {
  const text =
    ':arrows_counterclockwise: Following this change again: its follow-up stopped before the end (a Harbormaster restart or deploy, or its store failing). The steps start over from what the API shows now.';
  return finish(text, [section(text)]);
}
