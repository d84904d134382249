/**
 * The two Slack calls a tail makes (src/tails/messenger.ts), through the
 * gateway (slack/gateway): the slot came from the tails' fair queue the
 * gateway owns, so the call goes out at once; a 429 is held by the gateway
 * for every tail and replica and reaches the tail as RateLimited, which
 * tries the same refresh again after its next slot.
 */

import type { MessageMethod } from '../../slack-budget/budget.js';
import { writeOfMethod } from '../../slack-budget/tail-pacer.js';
import { RateLimited, type TailMessenger } from '../../tails/messenger.js';
import type { SlackGateway } from '../gateway/gateway.js';
import { retryAfterMs } from '../gateway/rate-limited.js';
import type { SlackMessage } from '../render/message.js';
import { inThread } from '../runtime/thread.js';

/** What a tail posts and edits in Slack. */
export type TailSlack = TailMessenger<SlackMessage>;

/** A TailSlack over the gateway's client. */
export function gatewayTailSlack(gateway: Pick<SlackGateway, 'tailCall'>): TailSlack {
  const send = async (method: MessageMethod, args: Record<string, unknown>) => {
    try {
      return await gateway.tailCall(method, args);
    } catch (error) {
      const ms = retryAfterMs(error);
      if (ms !== undefined) throw new RateLimited(writeOfMethod(method), ms);
      throw error;
    }
  };
  return {
    post: async (channel, threadTs, message) => {
      const res = (await send('chat.postMessage', {
        channel,
        text: message.text,
        blocks: message.blocks,
        ...inThread(threadTs),
      })) as { ts?: string };
      if (!res.ts) throw new Error('chat.postMessage answered without a ts');
      return res.ts;
    },
    update: async (channel, ts, message) => {
      await send('chat.update', { channel, ts, text: message.text, blocks: message.blocks });
    },
  };
}
