/** The Reject modal's submission: checks the reason inline in the ack, then rejects behind it (handlers/reject.ts). */
import type { SlackViewAction, ViewOutput } from '@slack/bolt';
import type { Actor, BotContext } from '../handlers/context.js';
import { assertOpenedView } from '../handlers/opened-views.js';
import { ephemeralReplyTo } from '../handlers/private-reply.js';
import { readReason, readRejectMetadata, submitReject } from '../handlers/reject.js';
import { REJECT_REASON_INPUT } from '../ids.js';
import { type Routed, slotted } from '../routes/work.js';

/** The Reject modal's submission, for the one view listener (interactions.ts). */
export function rejectSubmissionRoute(
  ctx: BotContext,
): (args: { body: SlackViewAction; view: ViewOutput }) => Routed {
  return ({ body, view }) => {
    const meta = readRejectMetadata(view.private_metadata);
    const read = readReason(view.state.values as never);
    if (!meta || 'error' in read) {
      const error = meta && 'error' in read ? read.error : 'This form is out of date; click Reject again.';
      return { ack: { response_action: 'errors', errors: { [REJECT_REASON_INPUT]: error } } };
    }
    return {
      work: () => {
        const actor: Actor = {
          user: body.user.id,
          // The rejecter's own workspace, as for clicks (clickActor): body.team may be the channel's host.
          team: body.user.team_id ?? body.team?.id ?? '',
          channel: meta.channel,
        };
        const reply = ephemeralReplyTo(ctx.slack, actor);
        return {
          name: 'submit reject',
          actor,
          reply,
          steps: slotted(async () => {
            // Checked behind the ack (a store read), as for change forms: a forged view rejects nothing.
            await assertOpenedView(ctx, view.id, view.hash);
            await submitReject(ctx, meta, read.reason, actor);
          }),
          // The reject is counted by the engine as it settles; only a failure of the work is counted here.
          tally: { counter: 'interactions', action: 'change.reject', errorsOnly: true },
        };
      },
    };
  };
}
