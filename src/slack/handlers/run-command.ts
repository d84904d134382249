/**
 * What each parsed `/harbor` command does, after the ack. Reads are authorized
 * by the policy and answered privately at once; changes go through the engine
 * and post a public preview; modal forms open a modal (see open-modal.ts).
 */
import { resolveBranch } from '../../changes/branches.js';
import { UserError } from '../../changes/errors.js';
import { missingIn } from '../../changes/not-found.js';
import { queryFormation, queryImages, queryRegion, queryVessels } from '../../changes/queries.js';
import { isNotFound } from '../../gamefabric/errors.js';
import type { ReadOperation, Target } from '../../policy/operations.js';
import type { Command } from '../grammar/command.js';
import { historyPage } from '../history/query.js';
import { renderApprovals } from '../render/approvals.js';
import { renderHelp } from '../render/help.js';
import { renderHistory } from '../render/history.js';
import { renderLogSnapshot } from '../render/logs.js';
import { renderFormation, renderImages, renderRegion, renderVessels } from '../render/reads.js';
import { renderAmbiguousRelease, renderReleaseEnded } from '../render/release-message.js';
import { followLogs } from '../tails/actions.js';
import type { Actor, BotContext, PrivateReply } from './context.js';
import { requestChange } from './request-change.js';

/** Runs a command that needs no trigger id (everything but modals); throws for reportError. */
export async function runCommand(
  ctx: BotContext,
  command: Exclude<Command, { kind: 'modal' }>,
  actor: Actor,
  reply: PrivateReply,
): Promise<void> {
  switch (command.kind) {
    case 'help':
      return reply(renderHelp(ctx.commandName, command.topic));
    case 'images': {
      const branch = await resolveBranch(ctx.api, command.branch, 'branch', ctx.branches);
      await authorizeRead(ctx, actor, 'images.list', { branch });
      return reply(renderImages(branch, await queryImages(ctx.api, branch, command.ref), command.ref));
    }
    case 'vessels':
      await authorizeRead(ctx, actor, 'vessels.list', { environment: command.environment });
      return reply(renderVessels(command.environment, await queryVessels(ctx.api, command.environment)));
    case 'formation.show': {
      const target = { environment: command.environment, formation: command.formation };
      await authorizeRead(ctx, actor, 'formation.show', target);
      const view = await queryFormation(ctx.api, command.environment, command.formation);
      return reply(renderFormation(command.environment, view));
    }
    case 'region.show': {
      const target = { environment: command.environment, region: command.region };
      await authorizeRead(ctx, actor, 'region.show', target);
      return reply(
        renderRegion(command.environment, await queryRegion(ctx.api, command.environment, command.region)),
      );
    }
    case 'approvals':
      return reply(
        renderApprovals(
          await ctx.engine.approvableBy(actor.user, actor.channel, actor.team),
          ctx.clock.now(),
        ),
      );
    case 'history': {
      // The audit log of the workspace, newest first (src/slack/history).
      const page = await historyPage(ctx.store, {
        workspace: actor.team,
        ...(command.filter ? { filter: command.filter } : {}),
      });
      return reply(renderHistory(page, command.filter, false));
    }
    case 'change':
      // The preview is the answer: posted publicly in the channel by requestChange.
      await requestChange(ctx, actor, command.operation, await withBranchNames(ctx, command.input));
      return;
    case 'logs': {
      const target = { environment: command.environment, vessel: command.vessel };
      await authorizeRead(ctx, actor, 'logs.read', target);
      if (command.follow) {
        // A live tail in a new thread (src/slack/tails); the thread is the answer.
        await followLogs(
          ctx,
          { ...target, ...(command.container ? { container: command.container } : {}) },
          actor,
        );
        return;
      }
      const lines = await ctx.api
        .vesselLogs(command.environment, command.vessel, {
          tailLines: command.lines,
          ...(command.container ? { container: command.container } : {}),
        })
        .catch(async (err) => {
          if (!isNotFound(err)) throw err;
          throw await missingIn('vessel', command.vessel, command.environment, async () =>
            (await ctx.api.listVessels(command.environment)).map((v) => v.metadata.name),
          );
        });
      return reply(renderLogSnapshot(command.environment, command.vessel, lines, command.container));
    }
    case 'release.start':
      // Release threads (src/slack/releases): the release message in the channel is the answer.
      await ctx.releases.start(actor, command.title);
      return;
    case 'release.end': {
      const outcome = await ctx.releases.end(actor, command.ref);
      return reply(
        outcome.kind === 'ended'
          ? renderReleaseEnded(outcome.release, outcome.tailsStopped)
          : renderAmbiguousRelease(ctx.commandName, command.ref, outcome.matches),
      );
    }
  }
}

/**
 * Branches typed by display name ("Production") or in another case become
 * branch names before the engine sees them; an unknown one is answered with
 * the branches that exist.
 */
async function withBranchNames(ctx: BotContext, input: Record<string, unknown>) {
  const out = { ...input };
  for (const field of ['sourceBranch', 'targetBranch'] as const) {
    const typed = out[field];
    if (typeof typed === 'string' && typed !== '') {
      out[field] = await resolveBranch(ctx.api, typed, field, ctx.branches);
    }
  }
  return out;
}

/** Read commands skip the change engine but still answer to the policy; throws UserError when refused. */
export async function authorizeRead(ctx: BotContext, actor: Actor, operation: ReadOperation, target: Target) {
  const decision = await ctx.policy.authorizeRequest({
    user: actor.user,
    channel: actor.channel,
    operation,
    target,
  });
  if (!decision.allowed) throw new UserError(decision.reason, 'refused');
}
