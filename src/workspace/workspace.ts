/**
 * The local workspace: Slack's Web API (the stand-in, on its own port of
 * 127.0.0.1) with demo people, groups and channels, plus the page that lets a
 * person use the bot in a browser. It knows the bot only through HTTP, as
 * Slack does: the bot calls its Web API with the token it hands out, and it
 * sends the bot signed requests with the signing secret it holds.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Interactions } from './interactions.js';
import { readCommandHint } from './manifest.js';
import { loadPageAssets, type PageAssets } from './page-assets.js';
import { pageRoutes, type WorkspaceRoute } from './page-routes.js';
import { pageState } from './page-state.js';
import { CHANNELS, PEOPLE, USER_GROUPS, workspaceDirectory } from './people.js';
import { type SlackStandIn, type StandInClock, startSlackStandIn } from './stand-in.js';

interface WorkspaceOptions {
  /** The slash command the page offers (the bot's HARBOR_COMMAND). */
  command: string;
  /** Path of manifest.yml, for the command's usage hint. */
  manifestPath: string;
  clock?: StandInClock;
  /**
   * Tests only: Slack's limits multiplied by this (default 1, Slack's real tiers, as people
   * running the local workspace get). Browser tests whose subject is not the pace raise it.
   */
  limitsScale?: number;
}

export interface Workspace {
  standIn: SlackStandIn;
  /** The bot token this workspace accepts (`xoxb-…`, fresh each start). */
  botToken: string;
  /** The secret this workspace signs requests with (fresh each start). */
  signingSecret: string;
  /** The Web API base URL for the bot's SLACK_API_URL. */
  apiUrl: string;
  /** The page's routes, to mount on the bot's HTTP port. */
  routes: WorkspaceRoute[];
  /** Tells the workspace where the app's request URL is, once the bot listens. */
  connect(eventsUrl: string): void;
  stop(): Promise<void>;
}

/** Per-minute budgets of the Web API methods the bot calls (Tier 3: 50, Tier 4: 100). */
const SLACK_TIERS: Record<string, number> = {
  'chat.delete': 50,
  'chat.postEphemeral': 100,
  'views.open': 100,
  'views.update': 100,
  'views.push': 100,
  'usergroups.users.list': 50,
  'conversations.info': 100,
  'conversations.members': 100,
  'users.info': 100,
};

/** Starts the workspace's Web API and prepares the page. */
export async function startWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const botToken = `xoxb-local-${randomBytes(12).toString('hex')}`;
  const signingSecret = randomBytes(24).toString('hex');
  const standIn = await startSlackStandIn({
    token: botToken,
    ...workspaceDirectory(),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // Slack's published tiers, so a bot that would be throttled in Slack is throttled here too.
  // (chat.postMessage's 1 per second per channel allows bursts in Slack; a strict window would not.)
  const scale = options.limitsScale ?? 1;
  standIn.enforceLimits({
    chatUpdatePerMinute: 50 * scale,
    perMinute: Object.fromEntries(Object.entries(SLACK_TIERS).map(([method, n]) => [method, n * scale])),
  });
  const hint = await readCommandHint(options.manifestPath, options.command);
  let eventsUrl: string | undefined;
  let version = 0;
  standIn.onChange(() => {
    version += 1;
  });
  const fieldErrors = new Map<string, Record<string, string>>();
  const interactions = new Interactions({
    standIn,
    signingSecret,
    command: options.command,
    people: PEOPLE,
    channels: CHANNELS,
    eventsUrl: () => eventsUrl,
    fieldErrors,
  });
  let assets: Promise<PageAssets> | undefined;
  const streams = new Set<ServerResponse>();
  const routes = pageRoutes({
    assets: () => {
      assets ??= loadPageAssets();
      return assets;
    },
    state: (viewer) =>
      pageState(
        {
          standIn,
          hint,
          people: PEOPLE,
          groups: USER_GROUPS,
          channels: CHANNELS,
          fieldErrors,
          version: () => version,
        },
        viewer,
      ),
    interactions,
    onChange: (listener) => standIn.onChange(listener),
    streams,
  });
  return {
    standIn,
    botToken,
    signingSecret,
    apiUrl: standIn.apiUrl,
    routes,
    connect: (url) => {
      eventsUrl = url;
    },
    stop: async () => {
      for (const res of streams) res.end();
      streams.clear();
      await standIn.stop();
    },
  };
}
