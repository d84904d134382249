/**
 * What the change-message owner is built from: the Slack client it alone
 * uses for a change's message, thread replies and ask; the store where what
 * a message is known to show is kept (so replicas agree); and the engine's
 * two services it needs (recording where the message is, following an
 * applied change). Named as in BotContext, so the bot's context serves.
 */
import type { WebClient } from '@slack/web-api';
import type { ChangeEngine } from '../../changes/engine.js';
import type { Clock } from '../../runtime/clock.js';
import type { ReleaseEvents } from '../../runtime/events.js';
import type { Logger } from '../../runtime/logger.js';
import type { Store } from '../../store/types.js';
import type { Tasks } from '../runtime/tasks.js';

export interface ChangeMessageDeps {
  slack: WebClient;
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
