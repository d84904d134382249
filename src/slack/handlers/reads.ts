/**
 * The read commands: authorized by the policy, answered from the hosting API
 * without a Change. The same answer is given privately to whoever asked and,
 * when they press "Share in channel", posted publicly (see share.ts).
 */
import type { Command } from '../grammar/command.js';
import { renderArmadas, renderFleet } from '../render/armadas.js';
import { renderFormations, renderRegions, renderVessel } from '../render/list-reads.js';
import { renderLogSnapshot } from '../render/logs.js';
import type { SlackMessage } from '../render/message.js';
import { renderFormation, renderImages, renderRegion, renderVessels } from '../render/reads.js';
import { renderSites } from '../render/sites.js';
import { approvalsAnswer } from './approvals-answer.js';
import type { Actor, RequestCtx } from './context.js';

/** A command whose answer is a private message that can be shared: every read but a live tail. */
type ReadCommand = Extract<
  Command,
  {
    kind:
      | 'images'
      | 'vessels'
      | 'vessel.show'
      | 'formations'
      | 'formation.show'
      | 'regions'
      | 'region.show'
      | 'approvals'
      | 'logs'
      | 'armadas'
      | 'armada.show'
      | 'armadaset.show'
      | 'sites';
  }
>;

const READ_KINDS = new Set<Command['kind']>([
  'images',
  'vessels',
  'vessel.show',
  'formations',
  'formation.show',
  'regions',
  'region.show',
  'approvals',
  'logs',
  'armadas',
  'armada.show',
  'armadaset.show',
  'sites',
]);

/** `command` when it is answered with a shareable message (`logs --follow` starts a tail instead). */
export function shareableRead(command: Command): ReadCommand | undefined {
  if (!READ_KINDS.has(command.kind) || (command.kind === 'logs' && command.follow)) return undefined;
  return command as ReadCommand;
}

/** An armada shown (the `armada show` answer, and the message shortcut's on a message naming one). */
export async function answerArmada(
  ctx: RequestCtx,
  actor: Actor,
  environment: string,
  armada: string,
): Promise<SlackMessage> {
  return renderFleet(environment, await ctx.reads.armada(actor, environment, armada), ctx.commandName);
}

/** The answer to a read, authorized for `actor` by the domain (changes/reads.ts); throws UserError when refused or not found. */
export async function answerRead(ctx: RequestCtx, command: ReadCommand, actor: Actor): Promise<SlackMessage> {
  switch (command.kind) {
    case 'images': {
      const { branch, groups } = await ctx.reads.images(actor, command.branch, command.ref);
      return renderImages(branch, groups, command.ref);
    }
    case 'vessels':
      return renderVessels(command.environment, await ctx.reads.vessels(actor, command.environment));
    case 'vessel.show':
      return renderVessel(
        command.environment,
        await ctx.reads.vessel(actor, command.environment, command.vessel),
      );
    case 'formations':
      return renderFormations(command.environment, await ctx.reads.formations(actor, command.environment));
    case 'regions':
      return renderRegions(command.environment, await ctx.reads.regions(actor, command.environment));
    case 'formation.show':
      return renderFormation(
        command.environment,
        await ctx.reads.formation(actor, command.environment, command.formation),
      );
    case 'region.show':
      return renderRegion(
        command.environment,
        await ctx.reads.region(actor, command.environment, command.region),
      );
    case 'armadas':
      return renderArmadas(await ctx.reads.armadas(actor, command.environment));
    case 'armada.show':
      return answerArmada(ctx, actor, command.environment, command.armada);
    case 'armadaset.show':
      return renderFleet(
        command.environment,
        await ctx.reads.armadaSet(actor, command.environment, command.armadaSet),
        ctx.commandName,
      );
    case 'sites':
      return renderSites(await ctx.reads.sites(actor, command.region));
    case 'approvals':
      return approvalsAnswer(ctx, actor);
    case 'logs': {
      const lines = await ctx.reads.logs(actor, command.environment, command.vessel, {
        lines: command.lines,
        container: command.container,
      });
      return renderLogSnapshot(command.environment, command.vessel, lines, command.container);
    }
  }
}
