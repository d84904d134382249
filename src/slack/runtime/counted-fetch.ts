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
 * body is read here, once, and the SDK gets a response holding the same
 * bytes. Not a clone: node-fetch's clones share one stream, and reading one to
 * its end before the other stalls once a body outgrows the stream's 16 KB
 * buffer (node-fetch's README, "custom highWaterMark").
 */
import type { FetchFunction } from '@slack/web-api';
import { Headers, Response } from 'node-fetch';
import type { Counter } from 'prom-client';
import { type SlackResponse, slackFetch } from './slack-fetch.js';

/** Error codes are Slack's snake_case words; anything else (an HTML error page) is not a label. */
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** A fetch for WebClient options that counts each call in `calls` by method and outcome. */
export function countedFetch(
  calls: Counter<'method' | 'outcome'>,
  fetch: FetchFunction = slackFetch,
): FetchFunction {
  return async (input, init) => {
    const method = methodOf(input);
    let response: SlackResponse;
    try {
      response = await fetch(input, init);
    } catch (error) {
      calls.inc({ method, outcome: 'network' });
      throw error;
    }
    if (response.status !== 200) {
      calls.inc({ method, outcome: response.status === 429 ? 'rate_limited' : `http_${response.status}` });
      return response;
    }
    let body: Buffer;
    try {
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      calls.inc({ method, outcome: 'network' });
      throw error;
    }
    calls.inc({ method, outcome: outcomeOf(body) });
    return holding(body, response);
  };
}

/** A response with `original`'s status, headers and URL that holds `body`, unread. */
function holding(body: Buffer, original: SlackResponse): SlackResponse {
  const copy = new Response(body, {
    status: original.status,
    statusText: original.statusText,
    headers: new Headers([...original.headers.entries()]),
  });
  // node-fetch sets a response's URL only for one it fetched; the SDK reads it (admin.analytics.getFile).
  Object.defineProperty(copy, 'url', { value: original.url });
  return copy;
}

/** The Web API method of a request URL (`https://slack.com/api/chat.update` -> `chat.update`). */
function methodOf(input: Parameters<FetchFunction>[0]): string {
  const url = typeof input === 'string' ? input : input.href;
  const last = url.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '';
  // Method names are dotted words. Bolt's respond() posts to a command's or click's response_url
  // through the same client: one label for all of them, not one per URL.
  return /^[a-zA-Z]+(\.[a-zA-Z]+)+$/.test(last) ? last : 'response_url';
}

/** A 200's outcome: `ok`, Slack's error code, or `invalid_response` when the body is not Slack's JSON. */
function outcomeOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { ok?: unknown; error?: unknown };
    if (parsed.ok === true) return 'ok';
    return typeof parsed.error === 'string' && ERROR_CODE.test(parsed.error) ? parsed.error : 'error';
  } catch {
    return 'invalid_response';
  }
}
