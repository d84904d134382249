/**
 * The bot token's check at start (`auth.test`), asked as soon as the process
 * starts rather than once the store and the policy are loaded: the round trip
 * to Slack (with TLS, 50-150 ms from most clusters) runs while they load,
 * instead of after them. Bolt is then given the bot's ids, so it does not ask
 * again (docs/memory.md).
 */
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { SlackConfig } from '../../config/config.js';
import { SLACK_CLIENT_RETRY } from './slack-fetch.js';

/** Who the token belongs to, as Bolt's authorization needs it. */
export interface BotIdentity {
  botId: string;
  botUserId: string;
}

/**
 * Asks Slack who the bot token is. Rejects with the Web API's error when Slack
 * refuses the token (describeStartFailure words it for the operator), and when
 * the token is not a bot's.
 */
export async function checkBotToken(
  slack: SlackConfig,
  clientOptions: WebClientOptions,
): Promise<BotIdentity> {
  const client = new WebClient(slack.botToken, {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    retryConfig: SLACK_CLIENT_RETRY,
    ...clientOptions,
  });
  const answer = await client.auth.test();
  if (!answer.bot_id || !answer.user_id) {
    throw new Error(
      'Slack did not name a bot for SLACK_BOT_TOKEN: it must be the Bot User OAuth Token (xoxb-...).',
    );
  }
  return { botId: answer.bot_id, botUserId: answer.user_id };
}
