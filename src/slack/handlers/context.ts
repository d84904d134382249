/**
 * What every handler needs, passed in once: the platform-neutral core, the
 * Slack Web API client, and the runtime pieces (clock, logger, metrics,
 * background tasks). Handlers take plain data, not Bolt's argument bags, so
 * they read as the flow they implement.
 */

import type { ChangeEngine } from '../../changes/engine.js';
import type { Reads } from '../../changes/reads.js';
import type { Freezes } from '../../freezes/manage.js';
import type { Policy } from '../../policy/types.js';
import type { EndResult, ReleaseOption } from '../../releases/releases.js';
import type { EndChoice } from '../../releases/types.js';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { ReleaseRecord, Store } from '../../store/types.js';
import type { TailService } from '../../tails/types.js';
import type { Watches } from '../../watches/manage.js';
import type { ChangeMessages } from '../change-messages/owner.js';
import type { ChannelNames } from '../runtime/channel-names.js';
import type { SlackCalls } from '../runtime/slack-calls.js';
import type { Tasks } from '../runtime/tasks.js';
import type { Actor, HomeNotices } from './actor.js';

/**
 * What flows ask of release threads. `slack/releases/threads.ts`
 * (`ReleaseThreads`) is the one implementation, handed in by bot.ts; the
 * flows name only this, so handlers/ need not import the room above them.
 */
export interface ReleaseFlows {
  start(actor: Actor, rawTitle: string): Promise<ReleaseRecord>;
  end(actor: Actor, ref: string, choice?: EndChoice): Promise<EndResult>;
  refresh(releaseId: string): Promise<void>;
  openRelease(releaseId: string): Promise<ReleaseRecord>;
  forChange(actor: Actor, option: ReleaseOption | undefined): Promise<ReleaseRecord | undefined>;
}

export interface BotContext {
  engine: ChangeEngine;
  /** Release threads (and live tails) keep their state here, so any replica can serve their buttons. */
  store: Store;
  /** Live log tails: started by `logs --follow` and the "Tail logs" button, stopped by Stop. */
  tails: TailService;
  /** The one owner of change messages: posts them; redraws them on the engine's events. */
  changeMessages: ChangeMessages;
  /** Release threads: start and end; their messages redraw on release events, not on calls from flows. */
  releases: ReleaseFlows;
  /** Read commands, live tails' checks and form choices: authorized and answered by the domain, never the API client. */
  reads: Reads;
  /** Watches (issue 29): watch, unwatch, watches, and an alert's What changed and Mute. */
  watches: Watches;
  /** Freezes (issue 41): freeze, unfreeze, freezes. */
  freezes: Freezes;
  /** For clicks outside the change engine (a tail's Stop), judged by the same policy. */
  policy: Policy;
  slack: SlackCalls;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  tasks: Tasks;
  /** Follow-ups after an apply (minutes long; best effort, not awaited by idle()). */
  /** Aborted when the bot stops: long-running work (follow-ups) ends early. */
  stopping: AbortSignal;
  channelNames: ChannelNames;
  /** The slash command's name, e.g. `/harbor`, for help and usage texts. */
  commandName: string;
  /** How long a command's answer may take before "Working on it…" shows. */
  workingNoticeMs: number;
  /** HARBOR_BRANCHES: restricts the API's branches offered and accepted, when set. */
  branches?: readonly string[];
  /** Environments offered in modals and suggested when a name is mistyped (the API cannot list them). */
  environments: readonly string[];
  /** Answers a person on their Home tab (a click there has no response_url and no channel). */
  homeNotices: HomeNotices;
}

// Actor and PrivateReply live in a leaf (actor.ts) so release threads need not import this file.
export type { Actor, HomeNotices, PrivateReply } from './actor.js';

/*
 * The named narrow contexts: what a kind of flow reads of BotContext. A flow
 * takes the one that fits its job (issue 25, 7), not a Pick of its own.
 */

/** Words an error for a person (environments for suggestions), logged and counted. */
export type ErrorCtx = Pick<BotContext, 'environments' | 'logger' | 'metrics' | 'store'>;

/** Opens and updates views; the store remembers which views we opened. */
export type ViewCtx = Pick<BotContext, 'clock' | 'slack' | 'store'>;

/** Asks the change engine and answers in Slack. */
export type ChangeCtx = Pick<BotContext, 'clock' | 'engine' | 'logger' | 'slack' | 'store'>;

/** Follows a change after its apply (minutes long, ended by stopping). */
export type FollowCtx = Pick<
  BotContext,
  'changeMessages' | 'clock' | 'engine' | 'logger' | 'metrics' | 'slack' | 'stopping' | 'store'
>;

/** Starts and stops live tails: authorized by the reads, run by the tail service. */
export type TailCtx = Pick<BotContext, 'policy' | 'reads' | 'releases' | 'store' | 'tails'>;

/** Opens and fills forms; their choices come through the domain's form queries. */
export type FormCtx = Pick<BotContext, 'clock' | 'environments' | 'logger' | 'reads' | 'slack' | 'store'>;

/** Asks for a change and posts its preview (or the form again). */
export type RequestCtx = Pick<
  BotContext,
  | 'changeMessages'
  | 'clock'
  | 'commandName'
  | 'engine'
  | 'environments'
  | 'logger'
  | 'reads'
  | 'slack'
  | 'store'
>;

/** Checks and runs any form's submission: a change, a tail, a reload. */
export type SubmitCtx = Pick<
  BotContext,
  | 'branches'
  | 'changeMessages'
  | 'clock'
  | 'commandName'
  | 'engine'
  | 'environments'
  | 'logger'
  | 'metrics'
  | 'policy'
  | 'reads'
  | 'releases'
  | 'slack'
  | 'store'
  | 'tails'
>;
