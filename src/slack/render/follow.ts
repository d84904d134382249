/**
 * A thread reply for one step in the aftermath of an applied change (a
 * vessel getting scheduled, failing, or the watch giving up).
 */
import type { KnownBlock } from '@slack/types';
import type { FollowEvent } from '../../changes/operation.js';
import { context, escapeFit, finish, section } from './blocks.js';
import type { SlackMessage } from './message.js';

const PREFIX: Record<FollowEvent['kind'], string> = {
  progress: ':hourglass_flowing_sand: Progress',
  done: ':white_check_mark: Done',
  failed: ':x: Failed',
  timeout: ':warning: Stopped watching',
};

/** One follow-up step as a short thread message, naming the vessel it is about. */
export function renderFollowEvent(event: FollowEvent): SlackMessage {
  const text = `${PREFIX[event.kind]}: ${escapeFit(event.message, 2500)}`;
  const blocks: KnownBlock[] = [section(text)];
  if (event.vessel) {
    blocks.push(
      context(
        `Vessel \`${escapeFit(event.vessel.name, 200)}\` in environment \`${escapeFit(event.vessel.environment, 200)}\``,
      ),
    );
  }
  return finish(text, blocks);
}
