/**
 * The one request funnel. Every call the client makes passes through here:
 * URL building, headers, the bearer token (with one re-login on a 401), the
 * per-request timeout, retries with backoff, response parsing with zod, and
 * turning every failure into one redacted ApiError. Nothing else in the
 * client calls fetch.
 */
import type nodeFetch from 'node-fetch';
import type { z } from 'zod';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { TokenSource } from './auth.js';
import { asBuffer, BodyTooLarge, readCapped } from './capped-body.js';
import {
  describeSchemaProblem,
  errorFromResponse,
  invalidResponseError,
  transportError,
} from './error-body.js';
import { ApiError, type ApiRequestInfo } from './errors.js';
import { bodyOf, headersFor, pathWithQuery, type RequestSpec } from './request-spec.js';
import { parseRetryAfterMs, type RetryPolicy, retryDelayMs } from './retry.js';
import type { SecretRegistry } from './secrets.js';

export type FetchLike = typeof nodeFetch;
type FetchResponse = Awaited<ReturnType<FetchLike>>;

export {
  apiPath,
  type HttpMethod,
  pathWithQuery,
  type RequestBody,
  type RequestSpec,
} from './request-spec.js';

/** A response body being streamed (node-fetch gives a Node Readable). */
export interface ResponseStream extends AsyncIterable<Uint8Array | string> {
  destroy(error?: Error): void;
}

export interface Requester {
  /** Sends the request and parses its JSON answer with `schema`; `what` names the expected resource in errors. */
  json<S extends z.ZodType>(spec: RequestSpec, schema: S, what: string): Promise<z.output<S>>;
  /** Sends the request and returns the answer's body as text. */
  text(spec: RequestSpec): Promise<string>;
  /** Sends the request and discards the answer's body. */
  empty(spec: RequestSpec): Promise<void>;
  /** Opens a streaming answer: the timeout and retries cover the request until its headers arrive. */
  stream(spec: RequestSpec): Promise<ResponseStream>;
  /**
   * Reads a finite answer piece by piece with `consume` (so a large body need
   * not be held whole); the timeout covers the whole read, and a retry reads
   * again from the start with a fresh `consume` call.
   */
  read<R>(spec: RequestSpec, consume: (body: ResponseStream) => Promise<R>): Promise<R>;
}

interface RequesterOptions {
  baseUrl: string;
  fetch: FetchLike;
  timeoutMs: number;
  /** The clock the timeout runs on; undefined: real time (see sendOnce). */
  timeoutClock: Clock | undefined;
  retry: RetryPolicy;
  clock: Clock;
  random: () => number;
  logger: Logger;
  secrets: SecretRegistry;
  /** Where bearer tokens come from (requests marked `anonymous` skip it). */
  tokens: TokenSource;
  /** The most of an answer read whole (`json`, `text`, `empty`); more is an InvalidResponse naming the size. */
  maxResponseBytes: number;
}

/** An error answer is only read for its message: a few KiB show it, the rest is dropped unread. */
const ERROR_BODY_BYTES = 64 * 1024;

type Consume<R> = (res: FetchResponse, request: ApiRequestInfo) => Promise<R>;

/** Creates the funnel; see RequesterOptions. */
export function createRequester(options: RequesterOptions): Requester {
  const base = options.baseUrl.replace(/\/+$/, '');
  const redact = (text: string) => options.secrets.redact(text);

  /**
   * The per-request timeout. A real timer by default, not the injected clock: it guards against a
   * stalled socket, which only real time can reveal. A test whose simulator says when it holds a
   * call on purpose (`Simulator.whenHeld`) passes its own clock, so a hang ends without waiting.
   */
  function startTimer(ms: number, onTimeout: () => void): { cancel: () => void } {
    const clock = options.timeoutClock;
    if (!clock) {
      const timer = setTimeout(onTimeout, ms);
      return { cancel: () => clearTimeout(timer) };
    }
    const cancelled = new AbortController();
    clock.sleep(ms, cancelled.signal).then(onTimeout, () => {});
    return { cancel: () => cancelled.abort() };
  }

  async function send<R>(spec: RequestSpec, consume: Consume<R>, timeoutCoversBody: boolean): Promise<R> {
    const request: ApiRequestInfo = { method: spec.method, path: pathWithQuery(spec) };
    let sent = 0;
    let failures = 0;
    let renewedToken = false;
    for (;;) {
      sent++;
      const token = spec.anonymous ? undefined : await options.tokens.getToken();
      try {
        return await sendOnce(spec, request, token, sent, consume, timeoutCoversBody);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // A refused token is replaced once per request; the repeat does not count as a retry.
        if (error.status === 401 && token !== undefined && !renewedToken) {
          renewedToken = true;
          if ((await options.tokens.renewAfterRejection(token)) !== undefined) continue;
        }
        failures++;
        const delay = retryDelayMs(
          {
            mode: spec.retry,
            attempt: failures,
            status: error.status,
            aborted: error.reason === 'Aborted',
            retryAfterMs: error.retryAfterMs,
          },
          options.retry,
          options.random,
        );
        if (delay === undefined) throw error;
        options.logger.warn('gamefabric request will be retried', {
          ...request,
          status: error.status,
          attempt: sent,
          delayMs: delay,
        });
        try {
          await options.clock.sleep(delay, spec.signal);
        } catch (cause) {
          throw transportError({ request, reason: 'Aborted', detail: 'aborted', cause, redact });
        }
      }
    }
  }

  async function sendOnce<R>(
    spec: RequestSpec,
    request: ApiRequestInfo,
    token: string | undefined,
    attempt: number,
    consume: Consume<R>,
    timeoutCoversBody: boolean,
  ): Promise<R> {
    const timeout = new AbortController();
    // The caller's signal stays linked for a stream's whole life, so aborting it also ends the body.
    const signal = spec.signal ? AbortSignal.any([timeout.signal, spec.signal]) : timeout.signal;
    let timedOut = false;
    const onTimeout = () => {
      timedOut = true;
      timeout.abort();
    };
    const timer = startTimer(options.timeoutMs, onTimeout);
    const started = options.clock.now();
    const fields = () => ({ ...request, ms: options.clock.now() - started, attempt });
    try {
      const res = await options.fetch(base + request.path, {
        method: spec.method,
        headers: headersFor(spec, token),
        body: bodyOf(spec.body),
        signal,
      });
      if (!res.ok) {
        throw errorFromResponse({
          request,
          status: res.status,
          statusText: res.statusText,
          bodyText: await readQuietly(res, ERROR_BODY_BYTES),
          retryAfterMs: parseRetryAfterMs(res.headers.get('retry-after'), options.clock.now()),
          redact,
        });
      }
      if (!timeoutCoversBody) timer.cancel();
      const result = await consume(res, request);
      options.logger.debug('gamefabric request', { ...fields(), status: res.status });
      return result;
    } catch (error) {
      const failure =
        error instanceof ApiError
          ? error
          : transportError({
              request,
              reason: spec.signal?.aborted ? 'Aborted' : timedOut ? 'Timeout' : 'NetworkError',
              detail: spec.signal?.aborted
                ? 'aborted'
                : timedOut
                  ? `timed out after ${options.timeoutMs} ms`
                  : `network error: ${error instanceof Error ? error.message : String(error)}`,
              cause: error,
              redact,
            });
      options.logger.info('gamefabric request failed', {
        ...fields(),
        status: failure.status,
        reason: failure.reason,
        error: failure.message,
      });
      throw failure;
    } finally {
      timer.cancel();
    }
  }

  /** The whole body as text, or an InvalidResponse naming the size once it passes the limit. */
  async function bodyText(res: FetchResponse, request: ApiRequestInfo): Promise<string> {
    try {
      return await readCapped(
        res.body as unknown as ResponseStream | null,
        res.headers.get('content-length'),
        options.maxResponseBytes,
      );
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      throw invalidResponseError({
        request,
        status: res.status,
        bodyText: '',
        problem: error.message,
        redact,
      });
    }
  }

  function parseJson<S extends z.ZodType>(spec: RequestSpec, schema: S, what: string): Consume<z.output<S>> {
    return async (res, request) => {
      const text = await bodyText(res, request);
      const invalid = (problem: string) =>
        invalidResponseError({
          request,
          status: res.status,
          bodyText: spec.responseHasSecrets ? '' : text,
          problem,
          redact,
        });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw invalid(
          text.trim() === '' ? `empty body, expected a ${what}` : `body is not JSON, expected a ${what}`,
        );
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw invalid(describeSchemaProblem(parsed.error, what));
      return parsed.data;
    };
  }

  return {
    json: (spec, schema, what) => send(spec, parseJson(spec, schema, what), true),
    text: (spec) => send(spec, (res, request) => bodyText(res, request), true),
    empty: (spec) =>
      send(
        spec,
        async (res, request) => {
          await bodyText(res, request);
        },
        true,
      ),
    stream: (spec) => send(spec, async (res, request) => bodyStream(res, request), false),
    read: (spec, consume) => send(spec, async (res, request) => consume(bodyStream(res, request)), true),
  };

  function bodyStream(res: FetchResponse, request: ApiRequestInfo): ResponseStream {
    if (!res.body) {
      throw invalidResponseError({
        request,
        status: res.status,
        bodyText: '',
        problem: 'no body',
        redact,
      });
    }
    return failuresAsApiErrors(res.body as unknown as ResponseStream, request, redact);
  }
}

/** The body with a broken connection mid-stream reported as an ApiError (status 0), like any other failure. */
function failuresAsApiErrors(
  body: ResponseStream,
  request: ApiRequestInfo,
  redact: (text: string) => string,
): ResponseStream {
  return {
    async *[Symbol.asyncIterator]() {
      try {
        yield* body;
      } catch (error) {
        const detail = `stream broke: ${error instanceof Error ? error.message : String(error)}`;
        throw transportError({ request, reason: 'NetworkError', detail, cause: error, redact });
      }
    },
    destroy: (error) => body.destroy(error),
  };
}

/**
 * The body of an error response, its first `limit` bytes at most; a failure
 * while reading it must not hide the status we already have.
 */
async function readQuietly(res: FetchResponse, limit: number): Promise<string> {
  const body = res.body as unknown as ResponseStream | null;
  if (!body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = asBuffer(chunk);
      chunks.push(bytes);
      size += bytes.length;
      if (size >= limit) {
        body.destroy();
        break;
      }
    }
  } catch {
    // What was read before the failure still shows the error.
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
