/**
 * The Home tab: drawn when a person opens it (`app_home_opened`), and
 * redrawn for everyone in the workspace who opened theirs whenever someone
 * acts there (a command, click or submission may move what it shows).
 */
import type { App } from '@slack/bolt';
import { METHOD_GATES, type SlackGateway } from '../gateway/gateway.js';
import type { BotContext } from '../handlers/context.js';
import { type Routed, run } from '../routes/work.js';
import { withMembershipBatch } from '../runtime/user-groups.js';
import { loadHome } from './home-data.js';
import { HomePublisher } from './publisher.js';
import { renderHome } from './render-home.js';

/**
 * How long a person counts as looking at their Home tab after opening it:
 * changes within it redraw the tab; later ones wait for the next visit, which
 * draws it anyway. Bounds the redraws one action costs in a big workspace.
 */
/** The listener path's event listeners (listeners/listen.ts), which sits above this room. */
interface EventListen {
  event<A extends object>(route: (args: A) => Routed): (args: A) => Promise<void>;
}

const HOME_OPEN_MS = 30 * 60_000;

/**
 * Home redraws' share of Slack's `views.publish` (Tier 4, 100+ a minute for
 * the workspace), kept by the gateway's gate in the store: under it with room
 * for the tabs people open. With 27 tabs open and a change every 2 s each tab
 * lags ~20 s at worst, never more.
 */
export const HOME_PUBLISHES_PER_MINUTE = METHOD_GATES['views.publish'].perMinute;

/** A publisher drawing Home tabs from `ctx`, paced by the gateway's `views.publish` gate (a 429 holds it for every replica). */
export function homePublisher(
  ctx: Pick<BotContext, 'clock' | 'engine' | 'freezes' | 'logger' | 'slack' | 'store' | 'stopping'>,
  gateway: Pick<SlackGateway, 'call' | 'slot'>,
): HomePublisher {
  return new HomePublisher({
    draw: async (user, team, notice) => renderHome(await loadHome(ctx, user, team), ctx.clock.now(), notice),
    publish: async (user, view, team) => {
      await gateway.call('home', 'views.publish', { user_id: user, view }, { team });
    },
    viewers: {
      note: (team, user) => ctx.store.noteHomeOpened(team, user, HOME_OPEN_MS, ctx.clock.now()),
      list: (team) => ctx.store.homeViewers(team, ctx.clock.now()),
    },
    logger: ctx.logger.child({ component: 'home' }),
    now: () => ctx.clock.now(),
    slot: (team) => gateway.slot('views.publish', team),
    batch: withMembershipBatch,
  });
}

/** Registers `app_home_opened` on `app`, on the one listener path (behind Bolt's ack, counted, errors logged). */
export function registerHome(app: App, home: HomePublisher, listen: EventListen): void {
  app.event(
    'app_home_opened',
    listen.event(
      ({ event, body }: { event: { tab?: string; user: string }; body: { team_id?: string } }) => ({
        // The Messages tab opens this event too; only the Home tab is ours to draw.
        work:
          event.tab === 'home'
            ? () => ({
                name: 'home opened',
                tally: { counter: 'interactions', action: 'home.opened' },
                steps: [run(() => home.opened(event.user, body.team_id ?? ''))],
              })
            : undefined,
      }),
    ),
  );
}
