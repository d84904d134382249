/**
 * What every handler needs, passed in once: the platform-neutral core, the
 * Slack Web API client, and the runtime pieces (clock, logger, metrics,
 * background tasks). Handlers take plain data, not Bolt's argument bags, so
 * they read as the flow they implement.
 */
import type { WebClient } from '@slack/web-api';
import type { ChangeEngine } from '../../changes/engine.js';
import type { Reads } from '../../changes/reads.js';
import type { Policy } from '../../policy/types.js';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Store } from '../../store/types.js';
import type { TailService } from '../../tails/types.js';
import type { Watches } from '../../watches/manage.js';
import type { ReleaseThreads } from '../releases/threads.js';
import type { ChannelNames } from '../runtime/channel-names.js';
import type { Tasks } from '../runtime/tasks.js';

export interface BotContext {
  engine: ChangeEngine;
  /** Release threads (and live tails) keep their state here, so any replica can serve their buttons. */
  store: Store;
  /** Live log tails: started by `logs --follow` and the "Tail logs" button, stopped by Stop. */
  tails: TailService;
  /** Release threads: start and end; their messages redraw on release events, not on calls from flows. */
  releases: ReleaseThreads;
  /** Read commands, live tails' checks and form choices: authorized and answered by the domain, never the API client. */
  reads: Reads;
  /** Watches (issue 29): watch, unwatch, watches, and an alert's What changed and Mute. */
  watches: Watches;
  /** For clicks outside the change engine (a tail's Stop), judged by the same policy. */
  policy: Policy;
  slack: WebClient;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  tasks: Tasks;
  /** Follow-ups after an apply (minutes long; best effort, not awaited by idle()). */
  followUps: Tasks;
  /** Aborted when the bot stops: long-running work (follow-ups) ends early. */
  stopping: AbortSignal;
  channelNames: ChannelNames;
  /** The slash command's name, e.g. `/harbor`, for help and usage texts. */
  commandName: string;
  /** HARBOR_BRANCHES: restricts the API's branches offered and accepted, when set. */
  branches?: readonly string[];
  /** Environments offered in modals and suggested when a name is mistyped (the API cannot list them). */
  environments: readonly string[];
}

// Actor and PrivateReply live in a leaf (actor.ts) so release threads need not import this file.
export type { Actor, PrivateReply } from './actor.js';
