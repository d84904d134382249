/**
 * The `/harbor` listener: acked before anything else (Slack's 3-second limit
 * is never at risk), then parsed and run behind the ack. Usage problems and
 * errors go back privately to the user; a change's preview goes to the
 * channel; a modal opens from the trigger at once, before waiting for a slot.
 * An answer that takes more than a moment is announced with "Working on it…".
 */
import type { App, SlashCommand } from '@slack/bolt';
import type { Command } from '../grammar/command.js';
import { parseCommand } from '../grammar/parse.js';
import type { Actor, BotContext, FormCtx } from '../handlers/context.js';
import { refuseFormEarly } from '../handlers/form-gate.js';
import { openModal } from '../handlers/modal.js';
import { renderUsage } from '../render/help.js';
import { commandActor } from '../routes/actor.js';
import { always, before, inSlot, type Job, run, type Step } from '../routes/work.js';
import { firstSighting } from '../runtime/command-replay.js';
import { commandReplies, type Respond } from './command-replies.js';
import type { Listen } from './listen.js';
import { runCommand } from './run-command.js';

/** Registers the slash command listener on `app`. */
export function registerCommand(app: App, ctx: BotContext, listen: Listen): void {
  app.command(
    ctx.commandName,
    listen('command', ({ command, respond }: { command: SlashCommand; respond: Respond }) => ({
      work: () => {
        const actor = commandActor(command);
        const replies = commandReplies(respond, {
          command: `${command.command} ${command.text ?? ''}`,
          clock: ctx.clock,
          afterMs: ctx.workingNoticeMs,
          logger: ctx.logger,
        });
        let cmd: Command | undefined;
        let fill: (() => Promise<void>) | undefined;
        return {
          name: 'command',
          actor,
          reply: replies.reply,
          tally: { counter: 'commands', command: 'command' },
          steps: [
            // Whatever happens, a "Working on it…" that no answer replaced goes.
            always(() =>
              replies
                .finish()
                .catch((error: unknown) => ctx.logger.warn('command: clean-up failed', { error })),
            ),
            dropReplays(ctx, command, actor),
            before(async (job) => {
              const parsed = parseCommand(command.text ?? '', ctx.commandName);
              if (!parsed.ok) {
                relabel(job, 'usage', 'usage');
                await replies.reply(renderUsage(ctx.commandName, parsed.usage));
                return;
              }
              cmd = parsed.command;
              relabel(job, `command ${nameOf(cmd)}`, nameOf(cmd));
              if (cmd.kind !== 'modal') return;
              // The trigger id works once, within 3 s: open the modal now; loading its choices can wait.
              const { kind: _, modal, release: option, ...prefill } = cmd;
              // A change form joins a release as a typed change would (src/releases: forChange).
              const release =
                modal === 'logs.follow' ? undefined : await ctx.releases.forChange(actor, option);
              const meta = {
                kind: modal,
                channel: actor.channel,
                ...(actor.channelName ? { channelName: actor.channelName } : {}),
                ...prefill,
                ...(release?.messageTs ? { threadTs: release.messageTs, releaseId: release.id } : {}),
              };
              await refuseFormEarly(ctx, actor, meta);
              fill = await openModal(ctx, command.trigger_id, meta, actor);
              await replies.finish();
            }),
            inSlot,
            run(async (job) => {
              if (!cmd) job.outcome = 'usage';
              else if (cmd.kind === 'modal') await fill?.();
              else await runCommand(ctx, cmd, actor, replies.reply, command.text);
            }),
          ],
        };
      },
    })),
  );
}

/**
 * A replayed signed body is dropped without an answer: its response_url is
 * the original's, and the person who ran the command has had their answer.
 */
function dropReplays(ctx: FormCtx, command: SlashCommand, actor: Actor): Step {
  return async (job, next) => {
    if (await firstSighting(ctx.store, command, ctx.clock.now())) return next();
    relabel(job, 'command replay', 'replay');
    job.outcome = 'ignored';
    ctx.logger.warn('ignored a replayed slash command', { user: actor.user, team: actor.team });
  };
}

/** Names the job for logs and error reports, and its `command` label, once the command is known. */
function relabel(job: Job, name: string, command: string): void {
  job.name = name;
  job.tally = { counter: 'commands', command };
}

/** The command's name in metrics and logs: the operation, `modal.<kind>`, or the read. */
function nameOf(cmd: Command): string {
  return cmd.kind === 'change' ? cmd.operation : cmd.kind === 'modal' ? `modal.${cmd.modal}` : cmd.kind;
}
