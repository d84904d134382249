/**
 * The per-row buttons of list and show answers and of applied changes (every
 * one in ids.ts ROW_ACTIONS: Show, Logs, Delete, Remove, Promote, Roll back),
 * on the one listener path. Show, Logs, Delete, Remove and Roll back run
 * their command as if typed (runCommand: a private answer, or the usual
 * public preview with Confirm for Delete, Remove and Roll back); Promote
 * opens the promote form from the click's trigger at once (it works once,
 * within 3 s), with the row's branch and image chosen.
 */

import { isRollback } from '../../changes/operations/change.rollback/operation.js';
import { UserError } from '../../errors/user-error.js';
import type { Actor, BotContext } from '../handlers/context.js';
import { refuseFormEarly } from '../handlers/form-gate.js';
import { openModal } from '../handlers/modal.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import { type RowCommand, readRowCommand } from '../handlers/row-command.js';
import { type ModalMetadata, ROW_ACTIONS, type RowAction } from '../ids.js';
import type { ActionRoutes, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { before, slotted } from '../routes/work.js';
import { runCommand } from './run-command.js';

/**
 * Where a row command posts: the clicker's channel, or, for a Roll back
 * clicked on Home (no channel), the channel of the change it rolls back, so
 * its preview stands where that change's people look.
 */
async function placed(ctx: BotContext, row: RowCommand & { kind: 'run' }, actor: Actor): Promise<Actor> {
  const command = row.command;
  if (actor.channel || command.kind !== 'change' || !isRollback(command.operation)) return actor;
  const [id] = (command.input as { changeIds?: string[] }).changeIds ?? [];
  const original = id ? await ctx.engine.get(id) : undefined;
  if (!original || original.origin.workspace !== actor.team) {
    throw new UserError(`There is no change ${id ?? ''} to roll back in this workspace.`, 'not_found');
  }
  return { ...actor, channel: original.origin.channel };
}

/** The routes of the row buttons, by action id. */
export function rowActionRoutes(ctx: BotContext): ActionRoutes {
  const routes: ActionRoutes = {};
  for (const [name, actionId] of Object.entries(ROW_ACTIONS) as [RowAction, string][]) {
    routes[actionId] = ({ body, action: button, respond }: ClickArgs) => ({
      work: () => {
        const actor = clickActor(body);
        const reply = privateReplyVia(respond);
        let row: RowCommand | undefined;
        let fill: (() => Promise<void>) | undefined;
        return {
          name: `click ${actionId}`,
          actor,
          reply,
          steps: [
            before(async () => {
              row = readRowCommand(name, button.value ?? '', ctx.commandName);
              if (row.kind !== 'promote') return;
              const meta: ModalMetadata = {
                kind: 'promote',
                channel: actor.channel,
                ...(body.channel?.name ? { channelName: body.channel.name } : {}),
                branch: row.branch,
                image: row.image,
              };
              await refuseFormEarly(ctx, actor, meta);
              fill = await openModal(ctx, body.trigger_id, meta, actor);
            }),
            ...slotted(async () => {
              if (row?.kind === 'run')
                await runCommand(ctx, row.command, await placed(ctx, row, actor), reply, row.text);
              else await fill?.();
            }),
          ],
          tally: { counter: 'interactions', action: actionId },
        };
      },
    });
  }
  return routes;
}
