/** The Reject modal's submission: checks the reason inline, then rejects after the ack (src/slack/handlers/reject.ts). */
import type { App } from '@slack/bolt';
import type { Actor, BotContext, PrivateReply } from '../handlers/context.js';
import { readReason, readRejectMetadata, submitReject } from '../handlers/reject.js';
import { reportError } from '../handlers/report-error.js';
import { REJECT_CALLBACK, REJECT_REASON_INPUT } from '../ids.js';

/** Registers the Reject modal's submission on `app`. */
export function registerRejectSubmission(app: App, ctx: BotContext): void {
  app.view(REJECT_CALLBACK, async ({ ack, body, view }) => {
    const meta = readRejectMetadata(view.private_metadata);
    const read = readReason(view.state.values as never);
    if (!meta || 'error' in read) {
      await ack({
        response_action: 'errors',
        errors: { [REJECT_REASON_INPUT]: meta && 'error' in read ? read.error : 'This form is out of date.' },
      });
      return;
    }
    await ack();
    const actor: Actor = {
      user: body.user.id,
      team: body.team?.id ?? body.user.team_id ?? '',
      channel: meta.channel,
    };
    const reply: PrivateReply = async (m) => {
      await ctx.slack.chat.postEphemeral({
        channel: actor.channel,
        user: actor.user,
        text: m.text,
        blocks: m.blocks,
      });
    };
    await ctx.tasks.run('submit reject', async () => {
      try {
        await submitReject(ctx, meta, read.reason, actor);
      } catch (err) {
        ctx.metrics.interactions.inc({ action: 'change.reject', outcome: 'error' });
        await reportError(ctx, reply, err, 'submit reject');
      }
    });
  });
}
