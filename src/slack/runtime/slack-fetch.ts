/**
 * The HTTP client of every Slack call the bot makes (the Web API, response
 * URLs): node-fetch, the one the hosting API client uses too. Node's own fetch
 * (undici) would be a second HTTP stack in the process, loaded at the first
 * Slack call: about 50 ms of a replica's first answer and some megabytes of
 * memory, for the same requests (docs/memory.md). A test may still give the
 * clients a fetch of its own (`clientOptions.fetch`).
 */
import type { FetchFunction, RetryOptions } from '@slack/web-api';
import nodeFetch, { type RequestInit } from 'node-fetch';

/** What a Slack client's fetch answers (the SDK's own type, not exported by name). */
export type SlackResponse = Awaited<ReturnType<FetchFunction>>;

export const slackFetch: FetchFunction = (url, init) =>
  // The SDK's request init is fetch's: a string or FormData body, headers as a record, redirect, signal.
  nodeFetch(url, init as RequestInit) as Promise<SlackResponse>;

/**
 * Retries of the bot's own Web API client (Bolt's) and of the token's check at start. The SDK's
 * default keeps retrying for ~30 minutes; an on-call user waiting for an answer (or a start-up
 * check) needs to hear within seconds.
 */
export const SLACK_CLIENT_RETRY: RetryOptions = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 4_000 };
