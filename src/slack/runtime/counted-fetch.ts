/**
 * Every Slack Web API call, counted where it leaves the process. Each
 * WebClient the bot makes (Bolt's, the ones Bolt builds per request, Socket
 * Mode's, the tails' own) sends its HTTP requests through the `fetch` it was
 * given, so wrapping that one function counts them all, retries and 429s
 * included, without touching the SDK.
 *
 * Methods: the Web API method, or `response_url` for Bolt's `respond()`.
 * Outcomes: `ok`, Slack's error code (`channel_not_found`), `rate_limited`
 * (HTTP 429), `http_<status>` for other answers, `network` when nothing came
 * back. Slack answers errors with HTTP 200 and `{ ok: false, error }`, so the
 * body is read from a clone and the SDK still reads the original.
 */
import type { FetchFunction } from '@slack/web-api';
import type { Counter } from 'prom-client';

/** Error codes are Slack's snake_case words; anything else (an HTML error page) is not a label. */
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** A fetch for WebClient options that counts each call in `calls` by method and outcome. */
export function countedFetch(
  calls: Counter<'method' | 'outcome'>,
  fetch: FetchFunction = (url, init) => globalThis.fetch(url, init as RequestInit),
): FetchFunction {
  return async (input, init) => {
    const method = methodOf(input);
    let response: Awaited<ReturnType<FetchFunction>>;
    try {
      response = await fetch(input, init);
    } catch (error) {
      calls.inc({ method, outcome: 'network' });
      throw error;
    }
    calls.inc({ method, outcome: await outcomeOf(response) });
    return response;
  };
}

/** The Web API method of a request URL (`https://slack.com/api/chat.update` -> `chat.update`). */
function methodOf(input: Parameters<FetchFunction>[0]): string {
  const url = typeof input === 'string' ? input : input.href;
  const last = url.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '';
  // Method names are dotted words. Bolt's respond() posts to a command's or click's response_url
  // through the same client: one label for all of them, not one per URL.
  return /^[a-zA-Z]+(\.[a-zA-Z]+)+$/.test(last) ? last : 'response_url';
}

async function outcomeOf(response: Awaited<ReturnType<FetchFunction>>): Promise<string> {
  if (response.status === 429) return 'rate_limited';
  if (response.status !== 200) return `http_${response.status}`;
  const clone = (response as { clone?: () => { text(): Promise<string> } }).clone;
  if (!clone) return 'ok';
  try {
    const body = JSON.parse(await clone.call(response).text()) as { ok?: unknown; error?: unknown };
    if (body.ok === true) return 'ok';
    return typeof body.error === 'string' && ERROR_CODE.test(body.error) ? body.error : 'error';
  } catch {
    return 'invalid_response';
  }
}
