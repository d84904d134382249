/**
 * The fake workspace both halves of the kit agree on: the stand-in answers
 * `auth.test` with this bot, and the signed-request builders put this team
 * and app into payloads, so Bolt's authorize step and the bot's own-message
 * checks line up without per-test wiring.
 */

export const TEST_TEAM = { id: 'T0HARBOR', domain: 'harbor-test', name: 'Harbor Test' } as const;

export const TEST_BOT = {
  token: 'xoxb-harbor-test-token',
  userId: 'U0HARBORBOT',
  botId: 'B0HARBORBOT',
  appId: 'A0HARBOR',
  name: 'harbormaster',
} as const;

/** The legacy verification token Slack still puts into slash commands and interactions. */
export const TEST_VERIFICATION_TOKEN = 'verification-token-harbor';

export const TEST_CHANNEL = { id: 'C0OPS', name: 'ops' } as const;

/** A person as payloads name them: `user_id`/`user_name`, or `user: { id, username }`. */
export interface TestUser {
  id: string;
  name: string;
}

export const TEST_USER: TestUser = { id: 'U0ALICE', name: 'alice' };
