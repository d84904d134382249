/**
 * The submission of a release thread's "Tail logs" modal: checked without
 * any API call for the ack (problems show on the fields), then authorized
 * like `logs --follow` and started as a live tail in the release thread. The
 * release message lists the tail once it runs.
 */

import type { ModalMetadata } from '../ids.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { readTailSubmission, type TailRequest, type ViewStateValues } from '../modals/index.js';
import { statusView } from '../render/status-view.js';
import type { Actor } from './actor.js';
import type { SubmitCtx, TailCtx } from './context.js';
import { type CheckedSubmission, showOutcome } from './submission.js';
import { followLogs } from './tail-actions.js';

/** The ack for a "Tail logs" submission and, when it is good, the work to run after acking. */
export function checkTailSubmission(
  ctx: SubmitCtx,
  meta: ModalMetadata,
  values: ViewStateValues,
  viewId: string,
  actor: Actor,
): CheckedSubmission {
  const read = readTailSubmission(meta, values);
  if (!read.ok) return { ack: { response_action: 'errors', errors: read.errors } };
  return {
    ack: { response_action: 'update', view: statusView('Starting…', 'Checking the vessel…') },
    afterAck: () =>
      showOutcome(ctx, viewId, 'tail-submit', 'Could not start', async () => {
        await startTail(ctx, meta, read.tail, actor);
        const where = meta.threadTs ? 'the release thread' : `<#${meta.channel}>`;
        return statusView(
          'Tail started',
          `Following *${escapeMrkdwn(truncate(read.tail.vessel, 200))}* in ${where}. Press Stop on the tail message to end it.`,
        );
      }),
  };
}

async function startTail(ctx: TailCtx, meta: ModalMetadata, tail: TailRequest, actor: Actor): Promise<void> {
  // An ended release keeps no live tails (its end stopped them); do not start one behind its back.
  if (meta.releaseId) await ctx.releases.openRelease(meta.releaseId);
  await followLogs(
    ctx,
    {
      ...tail,
      ...(meta.releaseId ? { releaseId: meta.releaseId } : {}),
      ...(meta.threadTs ? { threadTs: meta.threadTs } : {}),
    },
    actor,
  );
}
