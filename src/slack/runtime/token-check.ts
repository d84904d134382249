/**
 * The bot token's check at start (`auth.test`), asked as soon as the process
 * starts rather than once the store and the policy are loaded: the round trip
 * to Slack (with TLS, 50-150 ms from most clusters) runs while they load,
 * instead of after them. Bolt, the Slack budget and the user-group lookups
 * are then given its answer, so none asks again (docs/memory.md).
 */

/**
 * Who the token belongs to: the ids Bolt's authorization needs, and what the
 * Slack budget (the workspace) and the user-group lookups (an org-wide
 * install's need a team) would otherwise ask auth.test again for.
 */
export interface BotIdentity {
  botId: string;
  botUserId: string;
  /** The workspace the token is installed in (auth.test's team_id). */
  teamId?: string;
  /** An org-wide Enterprise Grid install. */
  enterpriseInstall: boolean;
}

/**
 * Asks Slack who the bot token is. Rejects with the Web API's error when Slack
 * refuses the token (describeStartFailure words it for the operator), and when
 * the token is not a bot's.
 */
export async function checkBotToken(gateway: { whoAmI(): Promise<unknown> }): Promise<BotIdentity> {
  // The gateway asks once, and keeps the answer: its team is the workspace of the bot's own calls.
  const answer = (await gateway.whoAmI()) as {
    bot_id?: string;
    user_id?: string;
    team_id?: string;
    is_enterprise_install?: boolean;
  };
  if (!answer.bot_id || !answer.user_id) {
    throw new Error(
      'Slack did not name a bot for SLACK_BOT_TOKEN: it must be the Bot User OAuth Token (xoxb-...).',
    );
  }
  return {
    botId: answer.bot_id,
    botUserId: answer.user_id,
    ...(answer.team_id ? { teamId: answer.team_id } : {}),
    enterpriseInstall: answer.is_enterprise_install === true,
  };
}
