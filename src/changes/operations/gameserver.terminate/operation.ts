/**
 * Terminate one game server (`gameserver.terminate`): for a server that does
 * not shut down by itself (docs `getting-started/terminating-game-servers.md`,
 * `DELETE /api/core/v1/sites/{site}/gameservers/{name}`). Destructive: an
 * allocated match on it ends. The plan looks the server up in its Site's list
 * (the list path is inferred; when it cannot be read the preview says so and
 * the DELETE decides); the apply runs once through the engine's claim, and a
 * 404 means it went away meanwhile, so nothing was terminated.
 */
import { UserError } from '../../../errors/user-error.js';
import { ApiError, isNotFound } from '../../../gamefabric/errors.js';
import { WorldMovedError } from '../../errors.js';
import type { OperationModule } from '../../operation.js';
import { type TerminateGameServerRequest, terminateGameServerSchema } from '../../requests/gameservers.js';
import { parseRequest } from '../../requests/vocabulary.js';

const refused = (err: unknown) => err instanceof ApiError && (err.status === 403 || err.status === 404);

export const terminateGameServer: OperationModule<TerminateGameServerRequest> = {
  parse: (input) => parseRequest(terminateGameServerSchema, input),

  target: (r) => ({ site: r.site, gameServer: r.name }),

  async plan(ctx, r) {
    let listed: string[] | undefined;
    try {
      listed = await ctx.client.listGameServerNames(r.site);
    } catch (err) {
      if (!refused(err)) throw err;
    }
    if (listed && !listed.includes(r.name)) {
      const like = listed.filter((n) => n.startsWith(r.name.replace(/-\d+$/, ''))).slice(0, 10);
      throw new UserError(
        `Site ${r.site} has no game server ${r.name}${like.length ? ` (it has ${like.join(', ')})` : ''}; nothing to terminate.`,
        'not_found',
      );
    }
    return {
      summary: `Terminate game server ${r.name} on site ${r.site}`,
      lines: [
        { label: 'Site', value: r.site },
        { label: 'Game server', value: r.name },
      ],
      notes: [
        'For a game server that does not shut down by itself. Its Armada starts a new one in its place.',
        ...(listed
          ? []
          : ['The game servers of this site could not be listed: the API decides whether it exists.']),
      ],
      warnings: [
        `If game server ${r.name} is allocated, the match on it ends and its players are disconnected.`,
      ],
      destructive: true,
      facts: {},
    };
  },

  async apply(ctx, { request: r }) {
    try {
      await ctx.client.terminateGameServer(r.site, r.name);
    } catch (err) {
      if (isNotFound(err)) {
        throw new WorldMovedError(
          `Game server ${r.name} is no longer on site ${r.site}; nothing was terminated.`,
        );
      }
      throw err;
    }
    return { summary: `Terminated game server ${r.name} on site ${r.site}`, lines: [], facts: {} };
  },

  async verify(ctx, { request: r }) {
    const names = await ctx.client.listGameServerNames(r.site);
    return names.includes(r.name) ? 'not_applied' : 'applied';
  },
};
