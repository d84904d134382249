/**
 * What the change-message owner is built from: the Slack client it alone
 * uses for a change's message, thread replies and ask; the store, where its
 * own drawing state lives (`slack_change_messages`: where each message is,
 * the ask's ts, what a message is known to show, so replicas agree) and where
 * it reads changes; and the one engine service it needs (giving back a
 * notice it could not deliver). It never writes a change record. Named as in
 * BotContext, so the bot's context serves.
 */
import type { WebClient } from '@slack/web-api';
import type { ChangeEngine } from '../../changes/engine.js';
import type { Clock } from '../../runtime/clock.js';
import type { ReleaseEvents } from '../../runtime/events.js';
import type { Logger } from '../../runtime/logger.js';
import type { Store } from '../../store/types.js';

export interface ChangeMessageDeps {
  slack: WebClient;
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
