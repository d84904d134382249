/**
 * The one owner of alert messages (issue 29): posts an alert when it opens
 * and edits the same message when it recovers. Each call first takes a slot
 * of the workspace's shared Slack budget in the tails' class, so alerts go
 * behind people's own messages (previews, results) and never past Slack's
 * limits, whatever the number of replicas. A 429 holds the gate for every
 * replica and leaves the alert undrawn: the poller's next pass draws it.
 */
import type { Clock } from '../../runtime/clock.js';
import type { MessageMethod } from '../../slack-budget/budget-types.js';
import type { SharedSlots } from '../../slack-budget/shared-slots.js';
import type { WatchAlert } from '../../store/watch-types.js';
import { RateLimited } from '../../tails/messenger.js';
import type { AlertMessenger } from '../../watches/types.js';
import { renderAlert } from '../render/alert-message.js';
import type { TailSlack } from '../tails/slack-calls.js';

export interface SlackAlertOptions {
  /** A client that rejects rate-limited calls instead of sleeping them off (the tails' own). */
  slack: TailSlack;
  /** The shared budget of a workspace. */
  slots(workspace: string): SharedSlots;
  clock: Clock;
  /** Aborted when the replica stops: an alert waiting for a slot is left for the next poller. */
  stopping?: AbortSignal;
  /** A line about a guard's automatic rollback of a change that touched the alert's object (guard-link.ts). */
  guardLine?: (alert: WatchAlert) => Promise<string | undefined>;
}

/** Alert messages over the Web API, paced by the shared budget. */
export function slackAlertMessenger(o: SlackAlertOptions): AlertMessenger {
  /** Waits for a slot of `method` in the tails' class; throws when the replica stops first. */
  async function slot(slots: SharedSlots, method: MessageMethod, channel: string): Promise<void> {
    for (;;) {
      const grant = await slots.take(method, channel, 'tail');
      if (grant.taken) return;
      await o.clock.sleep(Math.max(0, grant.retryAt - o.clock.now()), o.stopping);
    }
  }

  async function send<T>(
    alert: WatchAlert,
    method: MessageMethod,
    call: () => Promise<T>,
    claim: () => Promise<boolean> = async () => true,
  ): Promise<T | undefined> {
    const slots = o.slots(alert.workspace);
    await slot(slots, method, alert.channel);
    // Claimed after the wait, so a claim never ages while it waits for a slot (another replica may take a stale one).
    if (!(await claim())) return undefined;
    try {
      return await call();
    } catch (err) {
      if (err instanceof RateLimited) {
        await slots.hold(
          method,
          o.clock.now() + err.retryAfterMs,
          method === 'chat.postMessage' ? alert.channel : undefined,
        );
      }
      throw err;
    }
  }

  /** What the alert says, with the guard's line when one rolled its object's change back (read at each draw). */
  async function draw(alert: WatchAlert) {
    const line = await o.guardLine?.(alert).catch(() => undefined);
    return renderAlert(alert, line ? [line] : []);
  }

  return {
    post: async (alert) => {
      const message = await draw(alert);
      return send(alert, 'chat.postMessage', () => o.slack.post(alert.channel, undefined, message));
    },
    update: async (alert) => {
      const message = await draw(alert);
      return send(alert, 'chat.update', () => o.slack.update(alert.channel, alert.messageTs, message));
    },
  };
}
