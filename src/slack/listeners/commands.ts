/**
 * The `/harbor` listener: ack at once (before any API call, so Slack's
 * 3-second limit is never at risk), then parse and run. Usage problems and
 * errors go back privately to the user; a change's preview goes to the channel.
 */
import type { App } from '@slack/bolt';
import { parseCommand } from '../grammar/parse.js';
import type { Actor, BotContext, PrivateReply } from '../handlers/context.js';
import { openModal } from '../handlers/modal.js';
import { reportError } from '../handlers/report-error.js';
import { runCommand } from '../handlers/run-command.js';
import { renderUsage } from '../render/help.js';
import { firstSighting } from '../runtime/command-replay.js';

/** Registers the slash command listener on `app`. */
export function registerCommand(app: App, ctx: BotContext): void {
  app.command(ctx.commandName, async ({ command, ack, respond }) => {
    const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'command' });
    await ack();
    stopAck();
    const actor: Actor = {
      user: command.user_id,
      team: command.team_id,
      channel: command.channel_id,
      channelName: command.channel_name,
    };
    ctx.channelNames.learn(actor.channel, actor.channelName);
    const reply: PrivateReply = async (m) => {
      await respond({ response_type: 'ephemeral', text: m.text, blocks: m.blocks });
    };
    const answer = async (): Promise<void> => {
      const parsed = parseCommand(command.text ?? '', ctx.commandName);
      if (!parsed.ok) {
        ctx.metrics.commands.inc({ command: 'usage', outcome: 'usage' });
        await ctx.tasks.run('usage', () => reply(renderUsage(ctx.commandName, parsed.usage)));
        return;
      }
      const cmd = parsed.command;
      const name =
        cmd.kind === 'change' ? cmd.operation : cmd.kind === 'modal' ? `modal.${cmd.modal}` : cmd.kind;
      const stopHandle = ctx.metrics.handleSeconds.startTimer({ kind: 'command' });
      await ctx.tasks.run(`command ${name}`, async () => {
        try {
          if (cmd.kind === 'modal') {
            const { kind: _, modal, ...prefill } = cmd;
            await openModal(ctx, command.trigger_id, {
              kind: modal,
              channel: actor.channel,
              ...(actor.channelName ? { channelName: actor.channelName } : {}),
              ...prefill,
            });
          } else {
            await runCommand(ctx, cmd, actor, reply);
          }
          ctx.metrics.commands.inc({ command: name, outcome: 'ok' });
        } catch (err) {
          ctx.metrics.commands.inc({ command: name, outcome: 'error' });
          await reportError(ctx, reply, err, `command ${name}`);
        } finally {
          stopHandle();
        }
      });
    };
    // A replayed signed body is dropped without an answer: its response_url is the original's,
    // and the person who ran the command has had their answer already. The check is a task
    // itself, so idle() (shutdown, tests) covers the moment before the answer's task starts.
    await ctx.tasks.run('command replay check', async () => {
      let first: boolean;
      try {
        first = await firstSighting(ctx.store, command, ctx.clock.now());
      } catch (err) {
        await reportError(ctx, reply, err, 'command');
        return;
      }
      if (first) await answer();
      else {
        ctx.metrics.commands.inc({ command: 'replay', outcome: 'ignored' });
        ctx.logger.warn('ignored a replayed slash command', { user: actor.user, team: actor.team });
      }
    });
  });
}
