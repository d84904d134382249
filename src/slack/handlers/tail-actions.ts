/**
 * The Slack entry points of live tails, after the ack: `/harbor logs --follow`,
 * the "Tail logs" button (its value a TailStartValue) and the Stop button.
 * Starting checks the reader may see the logs and that the Vessel exists, so
 * a typo is answered at once instead of by a tail that stops immediately.
 */

import { UserError } from '../../errors/user-error.js';
import type { TailRecord } from '../../store/types.js';
import type { SlackMessage } from '../render/message.js';
import type { Actor, PrivateReply, TailCtx } from './context.js';
import { parseTailStartValue } from './tail-start-value.js';

/** What to follow, and the release thread to follow it in (if any). */
interface FollowRequest {
  environment: string;
  vessel: string;
  container?: string;
  releaseId?: string;
  threadTs?: string;
}

/** Starts a tail for `actor` once the domain says they may read the Vessel's logs and it exists. */
export async function followLogs(ctx: TailCtx, request: FollowRequest, actor: Actor): Promise<TailRecord> {
  await ctx.reads.tailSubject(actor, request.environment, request.vessel);
  return ctx.tails.start({
    workspace: actor.team,
    channel: actor.channel,
    ...(request.threadTs ? { threadTs: request.threadTs } : {}),
    ...(request.releaseId ? { releaseId: request.releaseId } : {}),
    env: request.environment,
    vessel: request.vessel,
    ...(request.container ? { container: request.container } : {}),
    user: actor.user,
  });
}

/** The "Tail logs" button: follows the Vessel in the thread of the message that carried the button. */
export async function startTailFromButton(
  ctx: TailCtx,
  value: string,
  actor: Actor,
  message: { ts?: string; threadTs?: string },
): Promise<TailRecord> {
  const parsed = parseTailStartValue(value);
  if (!parsed.ok)
    throw new UserError(
      `This button cannot be followed: ${parsed.problem}. Run \`/harbor logs <env> <vessel> --follow\` instead.`,
    );
  const start = parsed.value;
  // A release id is a claim of the button: the tail joins a release only if it is one in this channel.
  if (start.releaseId) {
    const release = await ctx.store.getRelease(start.releaseId);
    if (!release || release.channel !== actor.channel || release.workspace !== actor.team)
      throw new UserError(
        'This button names a release this channel does not have. Run `/harbor logs <env> <vessel> --follow` instead.',
      );
  }
  // A release's button sits on the release message or in its thread: the tail goes into that thread.
  const threadTs = message.threadTs ?? (start.releaseId ? message.ts : undefined);
  return followLogs(
    ctx,
    {
      environment: start.environment,
      vessel: start.vessel,
      ...(start.container ? { container: start.container } : {}),
      ...(start.releaseId ? { releaseId: start.releaseId } : {}),
      ...(threadTs ? { threadTs } : {}),
    },
    actor,
  );
}

/** The Stop button: stops the tail (here or through its owner); tells the clicker only when it is not immediate. */
export async function stopTailFromButton(
  ctx: TailCtx,
  tailId: string,
  actor: Actor,
  reply: PrivateReply,
): Promise<void> {
  const outcome = await ctx.tails.stop(tailId, actor.user);
  if (outcome === 'requested') {
    await reply(note('Stopping: the replica that follows this tail stops it within a few seconds.'));
  } else if (outcome === 'already_stopped') {
    await reply(note('That tail has already stopped.'));
  }
}

function note(text: string): SlackMessage {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}
