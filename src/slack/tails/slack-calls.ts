/**
 * The two Slack calls a tail makes (src/tails/messenger.ts), over the Web API. Tails use their own WebClient
 * that never waits out a 429 itself: the shared MessageBudget must hear about
 * it, pause that method for every tail, and the tail retries the same refresh
 * later. The bot's client would silently sleep instead, holding its queue.
 */
import { type FetchFunction, WebClient } from '@slack/web-api';
import type { Logger } from '../../runtime/logger.js';
import type { MessageMethod } from '../../slack-budget/budget.js';
import { RateLimited, type TailMessenger } from '../../tails/messenger.js';
import type { SlackMessage } from '../render/message.js';
import { boltLogger } from '../runtime/bolt-logger.js';
import { inThread } from '../runtime/thread.js';

/** What a tail posts and edits in Slack. */
export type TailSlack = TailMessenger<SlackMessage>;

/** Where the tails' own client connects: the bot's token and API URL. */
interface TailClientOptions {
  token: string;
  /** The Slack API base URL (tests: the stand-in). */
  apiUrl?: string;
  logger?: Logger;
  /** Where the client sends its requests (the bot's: it counts each call in harbor_slack_calls_total). */
  fetch?: FetchFunction;
}

/** A TailSlack over a dedicated WebClient that rejects rate-limited calls and never retries. */
export function webApiTailSlack(options: TailClientOptions): TailSlack {
  const client = new WebClient(options.token, {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.logger ? { logger: boltLogger(options.logger.child({ component: 'tail-web-api' })) } : {}),
  });
  return {
    post: async (channel, threadTs, message) => {
      const res = await rateLimitAware('chat.postMessage', () =>
        client.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks,
          ...inThread(threadTs),
        }),
      );
      if (!res.ts) throw new Error('chat.postMessage answered without a ts');
      return res.ts;
    },
    update: async (channel, ts, message) => {
      await rateLimitAware('chat.update', () =>
        client.chat.update({ channel, ts, text: message.text, blocks: message.blocks }),
      );
    },
  };
}

/** Runs `call`, turning the SDK's rate-limit rejection into RateLimited. */
async function rateLimitAware<T>(method: MessageMethod, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const e = error as { code?: string; retryAfter?: number };
    if (e?.code === 'slack_webapi_rate_limited_error') {
      throw new RateLimited(method, Math.max(0, (e.retryAfter ?? 1) * 1000));
    }
    throw error;
  }
}
