/**
 * The Slack entry points of live tails, after the ack: `/harbor logs --follow`,
 * the "Tail logs" button (its value a TailStartValue) and the Stop button.
 * Starting checks the reader may see the logs and that the Vessel exists, so
 * a typo is answered at once instead of by a tail that stops immediately.
 */

import { missingIn } from '../../changes/not-found.js';
import { UserError } from '../../errors/user-error.js';
import { isNotFound } from '../../gamefabric/errors.js';
import type { TailRecord } from '../../store/types.js';
import type { Actor, BotContext, PrivateReply } from '../handlers/context.js';
import type { TailStartValue } from '../ids.js';
import type { SlackMessage } from '../render/message.js';

/** What to follow, and the release thread to follow it in (if any). */
interface FollowRequest {
  environment: string;
  vessel: string;
  container?: string;
  releaseId?: string;
  threadTs?: string;
}

/** Starts a tail of an existing Vessel for `actor` (authorization is the caller's). */
export async function followLogs(
  ctx: Pick<BotContext, 'api' | 'tails'>,
  request: FollowRequest,
  actor: Actor,
): Promise<TailRecord> {
  try {
    await ctx.api.getVessel(request.environment, request.vessel);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw await missingIn('vessel', request.vessel, request.environment, async () =>
      (await ctx.api.listVessels(request.environment)).map((v) => v.metadata.name),
    );
  }
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
  ctx: Pick<BotContext, 'api' | 'policy' | 'tails'>,
  value: string,
  actor: Actor,
  message: { ts?: string; threadTs?: string },
): Promise<TailRecord> {
  const start = parseTailStartValue(value);
  if (!start)
    throw new UserError(
      'This button does not say which vessel to follow; run `/harbor logs <env> <vessel> --follow`.',
    );
  const decision = await ctx.policy.authorizeRequest({
    user: actor.user,
    channel: actor.channel,
    operation: 'logs.read',
    target: { environment: start.environment, vessel: start.vessel },
  });
  if (!decision.allowed) throw new UserError(decision.reason, 'refused');
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
  ctx: Pick<BotContext, 'tails'>,
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

/** Reads a "Tail logs" button value; undefined when it is not a TailStartValue. */
function parseTailStartValue(value: string): TailStartValue | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const v = raw as Record<string, unknown>;
  if (typeof v.environment !== 'string' || typeof v.vessel !== 'string') return undefined;
  if (!v.environment || !v.vessel) return undefined;
  return {
    environment: v.environment,
    vessel: v.vessel,
    ...(typeof v.container === 'string' && v.container ? { container: v.container } : {}),
    ...(typeof v.releaseId === 'string' && v.releaseId ? { releaseId: v.releaseId } : {}),
  };
}

function note(text: string): SlackMessage {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}
