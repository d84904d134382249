/**
 * The one owner of alert messages (issue 29): posts an alert when it opens
 * and edits the same message when it recovers. Each call goes through the
 * gateway as an alert (slack/gateway): behind people's own messages and
 * change outcomes, in the tails' class of the workspace's shared slots, and
 * never past Slack's limits, whatever the number of replicas. A 429 holds
 * the method for every replica and the call goes again after it.
 */
import type { WatchAlert } from '../../store/watch-types.js';
import type { AlertMessenger } from '../../watches/types.js';
import type { SlackGateway } from '../gateway/gateway.js';
import { renderAlert } from '../render/alert-message.js';

export interface SlackAlertOptions {
  gateway: Pick<SlackGateway, 'call'>;
  /** A line about a guard's automatic rollback of a change that touched the alert's object (guard-link.ts). */
  guardLine?: (alert: WatchAlert) => Promise<string | undefined>;
}

/** Alert messages over the Web API, ordered and paced by the gateway. */
export function slackAlertMessenger(o: SlackAlertOptions): AlertMessenger {
  async function send(
    alert: WatchAlert,
    method: 'chat.postMessage' | 'chat.update',
    args: Record<string, unknown>,
    claim: () => Promise<boolean> = async () => true,
  ): Promise<{ ts?: string } | undefined> {
    const answer = await o.gateway.call(
      'alert',
      method,
      // Claimed when the slot comes, so a claim never ages while it waits (another replica may take a stale one).
      async () => ((await claim()) ? args : undefined),
      { team: alert.workspace, channel: alert.channel },
    );
    return answer as { ts?: string } | undefined;
  }

  /** What the alert says, with the guard's line when one rolled its object's change back (read at each draw). */
  async function draw(alert: WatchAlert) {
    const line = await o.guardLine?.(alert).catch(() => undefined);
    return renderAlert(alert, line ? [line] : []);
  }

  return {
    post: async (alert, claim) => {
      const message = await draw(alert);
      const answer = await send(
        alert,
        'chat.postMessage',
        { channel: alert.channel, text: message.text, blocks: message.blocks },
        claim,
      );
      // Not claimed: another replica posts it.
      if (!answer) return undefined;
      if (!answer.ts) throw new Error('chat.postMessage answered without a ts');
      return answer.ts;
    },
    update: async (alert) => {
      const message = await draw(alert);
      await send(alert, 'chat.update', {
        channel: alert.channel,
        ts: alert.messageTs,
        text: message.text,
        blocks: message.blocks,
      });
    },
  };
}
