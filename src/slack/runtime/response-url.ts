/**
 * Where the bot may post a reply. Bolt's `respond` posts to whatever
 * `response_url` a payload names, and a signed body can name any address: a
 * reply (with whatever it says) would then go to someone else's server, and
 * the bot would be made to send requests into its own network. Only Slack's
 * own hosts are trusted, plus the Slack API host the bot is configured with
 * (the local workspace and the tests' Slack stand-in).
 */

/** Hosts Slack sends response URLs on (hooks.slack.com; GovSlack's slack-gov.com). */
const SLACK_DOMAINS = ['slack.com', 'slack-gov.com'];

/** Why `body` names a response URL the bot must not post to, or undefined when every one is fine. */
export function responseUrlProblem(
  body: Record<string, unknown>,
  trustedOrigins: readonly string[],
): string | undefined {
  const urls: unknown[] = [];
  if (body.response_url !== undefined) urls.push(body.response_url);
  if (Array.isArray(body.response_urls)) {
    for (const entry of body.response_urls)
      urls.push((entry as { response_url?: unknown } | null)?.response_url);
  }
  for (const url of urls) {
    if (typeof url !== 'string' || !trustedResponseUrl(url, trustedOrigins))
      return 'response_url is not a Slack address';
  }
  return undefined;
}

function trustedResponseUrl(text: string, trustedOrigins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (trustedOrigins.includes(url.origin)) return true;
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '')
    return false;
  return SLACK_DOMAINS.some((domain) => url.hostname === domain || url.hostname.endsWith(`.${domain}`));
}

/** The origin of the configured Slack API URL, whose host may also send response URLs (local mode, tests). */
export function configuredOrigins(apiUrl: string | undefined): string[] {
  if (!apiUrl) return [];
  try {
    return [new URL(apiUrl).origin];
  } catch {
    return [];
  }
}
