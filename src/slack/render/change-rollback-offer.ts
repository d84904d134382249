/**
 * What an applied change's message says about rolling it back: the Roll back
 * button while its inverse is on record, or, once a rollback claimed it, who
 * rolled it back and in which change's message. Also the links to other
 * messages that a change's message points at.
 */

import type { KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { GUARD_ACTOR } from '../../changes/engine/guard-rollback.js';
import { offersRollback } from '../../changes/rollback/undo.js';
import { context, escapeFit, mention, slackDate } from './blocks.js';
import { linked } from './permalink.js';
import { rowActions } from './row-actions.js';

/** Links to other messages a change's message points at, found by its owner in the store. */
export interface ChangeLinks {
  /** The permalink of the message of the rollback that rolled this change back. */
  rollback?: string;
  /** Who asked for that rollback (a Slack user id), when it could be read. */
  rollbackBy?: string;
}

/**
 * Roll back on an applied change that recorded its inverse, or the line saying
 * which rollback claimed it. The button runs `rollback <change-id>`: past the
 * window, or for a target that moved, that answers why instead of acting.
 */
export function rollbackOffer(change: Change, links: ChangeLinks): KnownBlock[] {
  if (change.rolledBackBy) {
    const rollback = linked(`change ${escapeFit(change.rolledBackBy, 80)}`, links.rollback);
    // The person first: on-call asks "who undid this?" before "which change?".
    // A guard's rollback was requested by Harbormaster itself (issue 42): no person to mention.
    const by =
      links.rollbackBy === GUARD_ACTOR
        ? `its guard in ${rollback}`
        : links.rollbackBy
          ? `${mention(links.rollbackBy)} in ${rollback}`
          : rollback;
    return [context(`Rolled back by ${by} ${slackDate(change.rolledBackAt ?? change.updatedAt)}`)];
  }
  if (!offersRollback(change.undo)) return [];
  return rowActions([
    {
      action: 'rollback',
      command: `rollback ${change.id}`,
      spoken: `Roll back: ${change.result?.summary ?? change.preview.summary}`,
    },
  ]);
}
