/**
 * Button clicks and modal submissions. Each is acked first; the work (engine,
 * API, Slack calls) runs after, as a tracked task.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { handleClick } from '../handlers/click.js';
import type { Actor, BotContext, PrivateReply } from '../handlers/context.js';
import { checkSubmission, fillModal } from '../handlers/modal.js';
import { reportError } from '../handlers/report-error.js';
import { CHANGE_ACTIONS, type ChangeAction, MODAL_CALLBACKS, MODAL_RELOAD_ACTION } from '../ids.js';
import { readMetadata } from '../modals/index.js';
import type { ViewStateValues } from '../modals/types.js';
import { registerReleaseActions } from '../releases/listeners.js';
import { registerTailActions } from '../tails/listeners.js';
import { privateReplyVia } from './private-reply.js';

/** Registers the change buttons, the modal reload action and the modal submissions on `app`. */
export function registerInteractions(app: App, ctx: BotContext): void {
  // Live tails (issue 5): the Stop and "Tail logs" buttons.
  registerTailActions(app, ctx);
  // Release threads (issue 5): the buttons on a release message open its modals.
  registerReleaseActions(app, ctx);
  for (const [action, actionId] of Object.entries(CHANGE_ACTIONS) as [ChangeAction, string][]) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action: button, respond }) => {
      const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'click' });
      await ack();
      stopAck();
      const actor: Actor = {
        user: body.user.id,
        // The clicker's own workspace: in a shared channel or an org-wide install, body.team may be another's.
        team: body.user.team_id ?? body.team?.id ?? '',
        channel: body.channel?.id ?? '',
        ...(body.channel?.name ? { channelName: body.channel.name } : {}),
      };
      ctx.channelNames.learn(actor.channel, actor.channelName);
      // A click in an ephemeral message (the approvals list) cannot see the change message it rewrites.
      const privateOrigin = (body.container as { is_ephemeral?: boolean } | undefined)?.is_ephemeral === true;
      const reply = privateReplyVia(respond);
      const stopHandle = ctx.metrics.handleSeconds.startTimer({ kind: 'click' });
      await ctx.tasks.run(`click ${action}`, async () => {
        try {
          await handleClick(ctx, action, button.value ?? '', actor, reply, { privateOrigin });
        } catch (err) {
          ctx.metrics.interactions.inc({ action: `change.${action}`, outcome: 'error' });
          await reportError(ctx, reply, err, `click ${action}`);
        } finally {
          stopHandle();
        }
      });
    });
  }

  app.action<BlockAction>(MODAL_RELOAD_ACTION, async ({ ack, body }) => {
    await ack();
    const view = body.view;
    const meta = view && readMetadata(view.private_metadata);
    if (!view || !meta) return;
    await ctx.tasks.run('modal reload', async () => {
      try {
        await fillModal(ctx, meta, view.id, view.hash, view.state.values as ViewStateValues);
      } catch (err) {
        ctx.metrics.errors.inc({ where: 'modal reload' });
        ctx.logger.warn('could not reload a modal', { error: err });
      }
    });
  });

  for (const callbackId of Object.values(MODAL_CALLBACKS)) {
    app.view(callbackId, async ({ ack, body, view }) => {
      const meta = readMetadata(view.private_metadata);
      if (!meta) {
        await ack({ response_action: 'errors', errors: {} });
        return;
      }
      const actor: Actor = {
        user: body.user.id,
        team: body.team?.id ?? body.user.team_id ?? '',
        channel: meta.channel,
        ...(meta.channelName ? { channelName: meta.channelName } : {}),
        ...(meta.threadTs ? { threadTs: meta.threadTs } : {}),
      };
      ctx.channelNames.learn(actor.channel, actor.channelName);
      let checked: ReturnType<typeof checkSubmission>;
      try {
        checked = checkSubmission(ctx, meta, view.state.values as ViewStateValues, view.id, actor);
      } catch (err) {
        await ack();
        const reply: PrivateReply = async (m) => {
          await ctx.slack.chat.postEphemeral({
            channel: actor.channel,
            user: actor.user,
            text: m.text,
            blocks: m.blocks,
          });
        };
        await ctx.tasks.run('modal submit error', () => reportError(ctx, reply, err, `submit ${meta.kind}`));
        return;
      }
      await ack(checked.ack);
      ctx.metrics.interactions.inc({
        action: `submit.${meta.kind}`,
        outcome: checked.ack.response_action === 'errors' ? 'invalid' : 'ok',
      });
      const then = checked.then;
      if (then) await ctx.tasks.run(`submit ${meta.kind}`, then);
    });
  }
}
