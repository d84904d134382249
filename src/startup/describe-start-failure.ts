/** Start-up failures in words an operator can act on, with secrets removed. */
import { redact } from '../runtime/logger.js';

/** One line saying why the bot could not start (e.g. Slack rejected the token). */
export function describeStartFailure(err: unknown, secrets: readonly string[]): string {
  const code = (err as { data?: { error?: string }; code?: string }).data?.error;
  if (
    code === 'invalid_auth' ||
    code === 'not_authed' ||
    code === 'account_inactive' ||
    code === 'token_revoked'
  ) {
    return `Slack rejected SLACK_BOT_TOKEN (${code}). Copy the Bot User OAuth Token again from OAuth & Permissions, and reinstall the app if it was removed.`;
  }
  if ((err as { code?: string }).code === 'slack_webapi_request_error') {
    return 'could not reach the Slack Web API (network error). Check connectivity, proxies and SLACK_API_URL if set.';
  }
  const message = err instanceof Error ? err.message : String(err);
  return redact(message, secrets);
}
