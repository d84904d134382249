/**
 * What the change-message owner is built from: the Slack client it alone
 * uses for a change's message, thread replies and ask; the store, where its
 * own drawing state lives (`slack_change_messages`: where each message is,
 * the ask's ts, what a message is known to show, so replicas agree) and where
 * it reads changes; and the one engine service it needs (giving back a
 * notice it could not deliver). It never writes a change record. Named as in
 * BotContext, so the bot's context serves.
 */
import type { ChangeEngine } from '../../changes/engine.js';
import type { Clock } from '../../runtime/clock.js';
import type { ReleaseEvents } from '../../runtime/events.js';
import type { Logger } from '../../runtime/logger.js';
import type { Store } from '../../store/types.js';
import type { LateArgs } from '../gateway/message-queue.js';
import type { SlackCalls } from '../runtime/slack-calls.js';

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
    | 'getChange'
    | 'listApprovalsFor'
    | 'changeMessages'
    | 'placeChangeMessage'
    | 'noteAsk'
    | 'markMessageDrawn'
    | 'undrawnChanges'
  >;
  engine: Pick<ChangeEngine, 'giveBackNotice'>;
  /** The slash command's name, for the approvals asks and reminders. */
  commandName: string;
  /** Releases whose changes' messages were placed or repaired are told, so their own messages link and catch up. */
  releaseEvents: ReleaseEvents;
}
