/**
 * The read commands: authorized by the policy, answered from the hosting API
 * without a Change. The same answer is given privately to whoever asked and,
 * when they press "Share in channel", posted publicly (see share.ts).
 */
import { resolveBranch } from '../../changes/branches.js';
import { missingIn } from '../../changes/not-found.js';
import { queryFormation, queryImages, queryRegion, queryVessels } from '../../changes/queries.js';
import { UserError } from '../../errors/user-error.js';
import { isNotFound } from '../../gamefabric/errors.js';
import type { ReadOperation, Target } from '../../policy/operations.js';
import type { Command } from '../grammar/command.js';
import { renderApprovals } from '../render/approvals.js';
import { renderLogSnapshot } from '../render/logs.js';
import type { SlackMessage } from '../render/message.js';
import { renderFormation, renderImages, renderRegion, renderVessels } from '../render/reads.js';
import type { Actor, BotContext } from './context.js';

/** A command whose answer is a private message that can be shared: every read but a live tail. */
type ReadCommand = Extract<
  Command,
  { kind: 'images' | 'vessels' | 'formation.show' | 'region.show' | 'approvals' | 'logs' }
>;

const READ_KINDS = new Set<Command['kind']>([
  'images',
  'vessels',
  'formation.show',
  'region.show',
  'approvals',
  'logs',
]);

/** `command` when it is answered with a shareable message (`logs --follow` starts a tail instead). */
export function shareableRead(command: Command): ReadCommand | undefined {
  if (!READ_KINDS.has(command.kind) || (command.kind === 'logs' && command.follow)) return undefined;
  return command as ReadCommand;
}

/** The answer to a read, authorized for `actor`; throws UserError when refused or not found. */
export async function answerRead(
  ctx: Pick<BotContext, 'api' | 'branches' | 'clock' | 'engine' | 'policy'>,
  command: ReadCommand,
  actor: Actor,
): Promise<SlackMessage> {
  switch (command.kind) {
    case 'images': {
      const branch = await resolveBranch(ctx.api, command.branch, 'branch', ctx.branches);
      await authorizeRead(ctx, actor, 'images.list', { branch });
      return renderImages(branch, await queryImages(ctx.api, branch, command.ref), command.ref);
    }
    case 'vessels':
      await authorizeRead(ctx, actor, 'vessels.list', { environment: command.environment });
      return renderVessels(command.environment, await queryVessels(ctx.api, command.environment));
    case 'formation.show': {
      const target = { environment: command.environment, formation: command.formation };
      await authorizeRead(ctx, actor, 'formation.show', target);
      const view = await queryFormation(ctx.api, command.environment, command.formation);
      return renderFormation(command.environment, view);
    }
    case 'region.show': {
      const target = { environment: command.environment, region: command.region };
      await authorizeRead(ctx, actor, 'region.show', target);
      return renderRegion(
        command.environment,
        await queryRegion(ctx.api, command.environment, command.region),
      );
    }
    case 'approvals':
      return renderApprovals(
        await ctx.engine.approvableBy(actor.user, actor.channel, actor.team),
        ctx.clock.now(),
      );
    case 'logs': {
      await authorizeRead(ctx, actor, 'logs.read', {
        environment: command.environment,
        vessel: command.vessel,
      });
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
      return renderLogSnapshot(command.environment, command.vessel, lines, command.container);
    }
  }
}

/** Read commands skip the change engine but still answer to the policy; throws UserError when refused. */
export async function authorizeRead(
  ctx: Pick<BotContext, 'policy'>,
  actor: Actor,
  operation: ReadOperation,
  target: Target,
) {
  const decision = await ctx.policy.authorizeRequest({
    user: actor.user,
    channel: actor.channel,
    operation,
    target,
  });
  if (!decision.allowed) throw new UserError(decision.reason, 'refused');
}
