/**
 * What the change-message owner is built from: the Slack client it alone
 * uses for a change's message, thread replies and ask; the store where what
 * a message is known to show is kept (so replicas agree); and the engine's
 * two services it needs (recording where the message is, following an
 * applied change). Named as in BotContext, so the bot's context serves.
 */
import type { ChangeEngine } from '../../changes/engine.js';
import type { Clock } from '../../runtime/clock.js';
import type { ReleaseEvents } from '../../runtime/events.js';
import type { Logger } from '../../runtime/logger.js';
import type { Store } from '../../store/types.js';
import type { LateArgs } from '../gateway/message-queue.js';
import type { SlackCalls } from '../runtime/slack-calls.js';
import type { Tasks } from '../runtime/tasks.js';

/** A change message's rewrite as the gateway takes it: keyed by the message, its arguments made when its slot comes. */
export interface Redraw {
  /** `outcome`: a final state or one someone can act on; `progress`: an in-between state ("Applying…"). */
  purpose: 'outcome' | 'progress';
  channel: string;
  /** The message (`<channel>/<ts>`): a rewrite still waiting is replaced by a newer one of the same key. */
  key: string;
  args: LateArgs;
}

export interface ChangeMessageDeps {
  /** The change's message and its thread's replies and asks, as a person's (they follow someone's action). */
  slack: SlackCalls;
  /** Follow-ups' progress in the thread (behind outcomes when slots are short). */
  progress: SlackCalls;
  /** Sends a rewrite of a change message through the gateway (slack/gateway). */
  redraw(call: Redraw): Promise<unknown>;
  clock: Clock;
  logger: Logger;
  store: Pick<
    Store,
    'getChange' | 'listApprovalsFor' | 'listChanges' | 'markDrawn' | 'releaseNotice' | 'updateChangeOrigin'
  >;
  engine: Pick<ChangeEngine, 'follow' | 'setOrigin'>;
  /** The slash command's name, for the approvals asks and reminders. */
  commandName: string;
  /** Follow-ups after an apply (minutes long; best effort, not awaited by idle()). */
  followUps: Tasks;
  /** Aborted when the bot stops: follow-ups end early. */
  stopping: AbortSignal;
  /** Releases whose changes' messages were repaired are told, as the same outage may have left theirs behind. */
  releaseEvents: ReleaseEvents;
}
