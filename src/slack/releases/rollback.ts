/**
 * "Roll back release" on a release message: one change.rollback of every
 * applied change of the release, previewed in the release's thread (newest
 * first, one Confirm or one approval for all). The domain (src/changes/rollback)
 * applies them in order, stops at the first refusal, and its result, posted
 * in the same thread, names what was rolled back, what was refused and why,
 * and what was not tried.
 */

import { isRollback, releaseRollbackInput } from '../../changes/operations/change.rollback/operation.js';
import { UserError } from '../../errors/user-error.js';
import type { SubmitCtx } from '../handlers/context.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import { requestChange } from '../handlers/request-change.js';
import { RELEASE_ROLLBACK_ACTION } from '../ids.js';
import type { ActionRoute, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { slotted } from '../routes/work.js';

/** The most changes one rollback takes (the request's own bound). */
const MAX_CHANGES = 100;

/** The route of the release message's "Roll back release" button (its value: the release id). */
export function releaseRollbackRoute(ctx: SubmitCtx): ActionRoute {
  return ({ body, action, respond }: ClickArgs) => ({
    work: () => {
      const actor = clickActor(body);
      return {
        name: `click ${RELEASE_ROLLBACK_ACTION}`,
        actor,
        reply: privateReplyVia(respond),
        steps: slotted(async () => {
          const releaseId = (
            'value' in action && typeof action.value === 'string' ? action.value : ''
          ).trim();
          const release = releaseId ? await ctx.store.getRelease(releaseId) : undefined;
          // The release as stored decides where the preview goes, not the click's payload.
          if (!release || release.workspace !== actor.team) {
            throw new UserError(
              'This button does not name a release of this workspace; nothing was done.',
              'validation',
            );
          }
          const applied = (await ctx.store.listChanges({ releaseId: release.id }))
            .filter((c) => c.status === 'succeeded' && !isRollback(c.operation))
            .map((c) => c.id);
          if (applied.length === 0) {
            throw new UserError(`Release “${release.title}” has no applied change to roll back.`, 'noop');
          }
          if (applied.length > MAX_CHANGES) {
            throw new UserError(
              `Release “${release.title}” applied ${applied.length} changes; a rollback takes at most ${MAX_CHANGES}. Roll back its changes one by one from their messages.`,
              'refused',
            );
          }
          // Not joined to the release: it may have ended, and its board lists its own steps, not their undoing.
          const where = {
            ...actor,
            channel: release.channel,
            ...(release.messageTs ? { threadTs: release.messageTs } : {}),
          };
          await requestChange(ctx, where, releaseRollbackInput(applied, release.id));
        }),
        tally: { counter: 'interactions', action: RELEASE_ROLLBACK_ACTION },
      };
    },
  });
}
