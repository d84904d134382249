/**
 * What each parsed `/harbor` command does, after the ack. Reads are authorized
 * by the policy and answered privately at once, with a "Share in channel"
 * button (see reads.ts); changes go through the engine and post a public
 * preview. Modal forms are not run here: the command listener opens them from
 * the trigger id (openModal in modal.ts).
 */

import { historyPage } from '../../changes/history-query.js';
import type { ChangeInput } from '../../changes/requests/index.js';
import { describe } from '../../operations/index.js';
import type { Command } from '../grammar/command.js';
import type { Actor, BotContext, PrivateReply, SubmitCtx, TailCtx } from '../handlers/context.js';
import { answerRead, shareableRead } from '../handlers/reads.js';
import { requestChange } from '../handlers/request-change.js';
import { followLogs } from '../handlers/tail-actions.js';
import { answerEnd } from '../releases/end.js';
import { renderFreezeAnswer } from '../render/freezes.js';
import { renderHelp } from '../render/help.js';
import { renderHistory } from '../render/history.js';
import { renderJoinedRelease } from '../render/joined-release.js';
import { renderScheduledList } from '../render/scheduled-list.js';
import { withShareButton } from '../render/share.js';
import { renderWatchAnswer } from '../render/watches.js';

/** Runs a command that needs no trigger id (everything but modals); throws for reportError. */
export async function runCommand(
  ctx: SubmitCtx & Pick<BotContext, 'watches' | 'freezes'>,
  command: Exclude<Command, { kind: 'modal' }>,
  actor: Actor,
  reply: PrivateReply,
  /** The text after the command name; a read's "Share in channel" button carries it. */
  text?: string,
): Promise<void> {
  const read = shareableRead(command);
  if (read) {
    const answer = await answerRead(ctx, read, actor);
    return reply(text?.trim() ? withShareButton(answer, text.trim()) : answer);
  }
  switch (command.kind) {
    case 'help':
      return reply(renderHelp(ctx.commandName, command.topic));
    case 'history': {
      // The audit log of the workspace, newest first (src/slack/history).
      const page = await historyPage(ctx.store, {
        workspace: actor.team,
        ...(command.filter ? { filter: command.filter } : {}),
      });
      return reply(renderHistory(page, command.filter, false));
    }
    case 'change': {
      // The preview is the answer: posted publicly by requestChange, in the thread of the release it joins.
      const release = await ctx.releases.forChange(actor, command.release);
      const where = release?.messageTs ? { ...actor, threadTs: release.messageTs } : actor;
      const { kind: _change, release: _named, breakGlass, at, guard, ...asked } = command;
      const change = await requestChange(ctx, where, await withBranchNames(ctx, asked), release?.id, {
        ...(breakGlass !== undefined ? { breakGlass } : {}),
        ...(at !== undefined ? { at } : {}),
        ...(guard !== undefined ? { guard } : {}),
      });
      // The preview went into the release thread, maybe out of view: answered here too, with a link to it.
      if (release) return reply(renderJoinedRelease(release.title, change));
      return;
    }
    case 'logs': {
      // `--follow`: a live tail in a new thread (src/slack/tails); the thread is the answer.
      const target = { environment: command.environment, vessel: command.vessel };
      await followLogs(
        ctx,
        { ...target, ...(command.container ? { container: command.container } : {}) },
        actor,
      );
      return;
    }
    case 'watch':
      return reply(
        renderWatchAnswer(
          await ctx.watches.watch(actor, command.environment, ctx.clock.now()),
          ctx.commandName,
        ),
      );
    case 'unwatch':
      return reply(renderWatchAnswer(await ctx.watches.unwatch(actor, command.environment), ctx.commandName));
    case 'watches':
      return reply(renderWatchAnswer(await ctx.watches.list(actor), ctx.commandName));
    case 'freeze': {
      const { kind: _freeze, ...asked } = command;
      return reply(
        renderFreezeAnswer(await ctx.freezes.freeze(actor, asked, ctx.clock.now()), ctx.commandName),
      );
    }
    case 'unfreeze':
      return reply(
        renderFreezeAnswer(
          await ctx.freezes.unfreeze(actor, command.environment, ctx.clock.now()),
          ctx.commandName,
        ),
      );
    case 'freezes':
      return reply(renderFreezeAnswer(await ctx.freezes.list(ctx.clock.now()), ctx.commandName));
    case 'scheduled':
      // Scheduled changes not started yet (issue 41), judged as the read changes.scheduled, with Cancel.
      return reply(
        renderScheduledList(await ctx.engine.scheduledFor(actor, command.environment), command.environment),
      );
    case 'release.start':
      // Release threads (src/slack/releases): the release message in the channel is the answer.
      await ctx.releases.start(actor, command.title);
      return;
    case 'release.end':
      return answerEnd(ctx, await ctx.releases.end(actor, command.ref), reply, command.ref);
    default:
      // The reads, answered above.
      throw new Error(`${command.kind} is a read and was answered above`);
  }
}

/**
 * Branches typed by display name ("Production") or in another case become
 * branch names before the engine sees them; an unknown one is answered with
 * the branches that exist.
 */
async function withBranchNames(ctx: TailCtx, asked: ChangeInput): Promise<ChangeInput> {
  const fields = describe(asked.operation).branchFields ?? [];
  if (fields.length === 0) return asked;
  const input: Record<string, unknown> = { ...asked.input };
  for (const field of fields) {
    const typed = input[field];
    if (typeof typed === 'string' && typed) input[field] = await ctx.reads.branch(typed, field);
  }
  // Only branch names changed, so the input is still the operation's.
  return { operation: asked.operation, input } as ChangeInput;
}
