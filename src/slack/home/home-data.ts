/**
 * What a person's Home tab shows, read fresh for each publish: changes
 * waiting for their approval, their own recent requests, the live tails they
 * started, the workspace's open releases and the open alerts of the channels
 * the person is in. All from the store and the
 * engine (which asks the policy with the person's workspace), no API call.
 */
import type { Change } from '../../changes/change.js';
import { UserError } from '../../errors/user-error.js';
import type { Freeze } from '../../freezes/types.js';
import type { ReleaseRecord, TailRecord } from '../../store/types.js';
import type { WatchAlert } from '../../store/watch-types.js';
import type { BotContext } from '../handlers/context.js';
import { openAlertsFor } from './alerts.js';

/** How many of the person's own requests the Home tab lists (newest first). */
const MY_REQUESTS_SHOWN = 10;

export interface HomeData {
  waiting: Change[];
  mine: Change[];
  tails: TailRecord[];
  releases: ReleaseRecord[];
  /** Open watch alerts of the channels the person is in. */
  alerts: WatchAlert[];
  /** The freezes in force now, people's and the policy's windows (issue 41). */
  freezes: Freeze[];
  /** Scheduled changes not started yet in the workspace, soonest first, when the person may list them. */
  scheduled: Change[];
}

/** Reads the Home tab of `user` in workspace `team`. */
export async function loadHome(
  ctx: Pick<BotContext, 'engine' | 'store' | 'slack' | 'freezes' | 'clock'>,
  user: string,
  team: string,
): Promise<HomeData> {
  const [waiting, mine, tails, releases, alerts, frozen, scheduled] = await Promise.all([
    // No channel: the Home tab is nobody's, so each change is judged in its own channel (engine/clicks.ts).
    ctx.engine.approvableBy(user, '', team),
    ctx.engine.requestsOf(user, MY_REQUESTS_SHOWN),
    ctx.store.listTails({ status: 'active', workspace: team }),
    ctx.store.listReleases({ status: 'open', workspace: team }),
    openAlertsFor(ctx.store, ctx.slack, user, team),
    ctx.freezes.list(ctx.clock.now()),
    // Judged as `/harbor scheduled` from no channel; a person the policy does not let list them sees none.
    ctx.engine.scheduledFor({ user, channel: '', team }).catch((err: unknown) => {
      if (err instanceof UserError) return [];
      throw err;
    }),
  ]);
  return {
    waiting,
    mine,
    tails: tails.filter((t) => t.startedBy === user),
    releases,
    alerts,
    freezes: frozen.kind === 'freezes' ? frozen.active : [],
    scheduled,
  };
}
