/**
 * Answering an end of a release, whichever way it was asked for (`release
 * end`, the End button, or the choice about its waiting changes): the
 * ambiguous titles, the question about what still waits, or the ended
 * release. The messages of the changes the end cancelled are redrawn by
 * their owner (slack/change-messages), told by the engine's cancel.
 */
import type { EndResult } from '../../releases/releases.js';
import type { PrivateReply, RequestCtx } from '../handlers/context.js';
import { placed } from '../handlers/placed.js';
import { renderEndAnswer, renderEndChoice } from '../render/release-end.js';
import { renderAmbiguousRelease } from '../render/release-message.js';

/** Shows `outcome` to whoever ended (`ref`: what they typed, for the ambiguous answer). */
export async function answerEnd(
  ctx: RequestCtx,
  outcome: EndResult,
  reply: PrivateReply,
  ref: string,
): Promise<void> {
  switch (outcome.kind) {
    case 'ambiguous':
      return reply(renderAmbiguousRelease(ctx.commandName, ref, outcome.matches));
    case 'waiting':
      return reply(renderEndChoice(outcome.release, await placed(ctx, outcome.waiting), outcome.digest));
    case 'ended':
      return reply(renderEndAnswer(outcome));
  }
}
