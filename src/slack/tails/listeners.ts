/**
 * The buttons of live tails: Stop (value: the tail id) and "Tail logs"
 * (value: a TailStartValue). Acked first; the work runs as a tracked task,
 * and errors reach the clicker privately.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Actor, BotContext, PrivateReply } from '../handlers/context.js';
import { reportError } from '../handlers/report-error.js';
import { TAIL_ACTIONS } from '../ids.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import { startTailFromButton, stopTailFromButton } from './actions.js';

/** Registers the Stop and "Tail logs" buttons on `app`. */
export function registerTailActions(app: App, ctx: BotContext): void {
  for (const [name, actionId] of Object.entries(TAIL_ACTIONS) as [keyof typeof TAIL_ACTIONS, string][]) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action: button, respond }) => {
      const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'click' });
      await ack();
      stopAck();
      const message = body.message as { ts?: string; thread_ts?: string } | undefined;
      const actor: Actor = {
        user: body.user.id,
        team: body.team?.id ?? body.user.team_id ?? '',
        channel: body.channel?.id ?? '',
        ...(body.channel?.name ? { channelName: body.channel.name } : {}),
        ...(message?.thread_ts ? { threadTs: message.thread_ts } : {}),
      };
      ctx.channelNames.learn(actor.channel, actor.channelName);
      const reply = privateReplyVia(respond);
      await ctx.tasks.run(`click tail.${name}`, async () => {
        try {
          if (name === 'stop') await stopTailFromButton(ctx, button.value ?? '', actor, reply);
          else
            await startTailFromButton(ctx, button.value ?? '', actor, {
              ...(message?.ts ? { ts: message.ts } : {}),
              ...(message?.thread_ts ? { threadTs: message.thread_ts } : {}),
            });
          ctx.metrics.interactions.inc({ action: `tail.${name}`, outcome: 'ok' });
        } catch (err) {
          ctx.metrics.interactions.inc({ action: `tail.${name}`, outcome: 'error' });
          await reportError(ctx, reply, err, `click tail.${name}`);
        }
      });
    });
  }
}
