/**
 * Vessel logs (seed endpoint 5): the recent lines, or a `follow=true` stream
 * of new lines as an async iterable that ends cleanly when the caller aborts
 * or stops iterating, and always releases the connection.
 */
import { splitLines } from './lines.js';
import { apiPath, type Requester, type RequestSpec, type ResponseStream } from './request.js';

interface LogOptions {
  /** Which container of the Vessel (the game server when unset). */
  container?: string;
  signal?: AbortSignal;
}

/** The log format is unknown (see the reference): ask for text and take whatever comes. */
const LOG_ACCEPT = 'text/plain, */*';

const logsPath = (env: string, name: string) =>
  apiPath`/api/formation/v1/environments/${env}/vessels/${name}/logs`;

/** Most lines a snapshot keeps when the caller names no tailLines. */
const SNAPSHOT_MAX_LINES = 10_000;

/**
 * The Vessel's recent log lines: the last `tailLines` when given (at most
 * SNAPSHOT_MAX_LINES otherwise). tailLines is not documented (only
 * follow=true is), so an API may ignore it and send the whole log: the body
 * is read in chunks and only the last lines are kept, in bounded memory.
 */
export async function vesselLogs(
  http: Requester,
  env: string,
  name: string,
  opts: LogOptions & { tailLines?: number } = {},
): Promise<string[]> {
  const keep = Math.max(0, opts.tailLines ?? SNAPSHOT_MAX_LINES);
  return http.read(
    {
      method: 'GET',
      path: logsPath(env, name),
      query: { container: opts.container, tailLines: opts.tailLines },
      accept: LOG_ACCEPT,
      retry: 'idempotent',
      signal: opts.signal,
    },
    (body) => lastLines(splitLines(body), keep),
  );
}

/** The last `keep` lines of `lines`, holding at most twice that many at any time. */
async function lastLines(lines: AsyncIterable<string>, keep: number): Promise<string[]> {
  let kept: string[] = [];
  for await (const line of lines) {
    if (keep === 0) continue;
    kept.push(line);
    // Trim in batches, so keeping the tail of a long log costs amortised O(1) per line.
    if (kept.length >= keep * 2) kept = kept.slice(-keep);
  }
  return kept.length > keep ? kept.slice(-keep) : kept;
}

/**
 * New log lines as they arrive (`follow=true`, `Connection: keep-alive` per
 * the seed). Only the connect is retried: after lines have been delivered a
 * silent reconnect would repeat or skip some, so a dropped stream ends in an
 * ApiError (status 0) and the caller decides. Aborting `signal` ends the
 * iteration without an error; breaking out of the loop closes the connection.
 */
export async function* streamVesselLogs(
  http: Requester,
  env: string,
  name: string,
  opts: LogOptions & { tailLines?: number } = {},
): AsyncGenerator<string, void, undefined> {
  const { signal } = opts;
  const spec: RequestSpec = {
    method: 'GET',
    path: logsPath(env, name),
    // tailLines 0 on a reconnect asks for new lines only, so a resumed tail does not repeat old ones.
    query: { follow: true, container: opts.container, tailLines: opts.tailLines },
    accept: LOG_ACCEPT,
    headers: { Connection: 'keep-alive' },
    retry: 'idempotent',
    signal,
  };
  let body: ResponseStream;
  try {
    body = await http.stream(spec);
  } catch (error) {
    if (signal?.aborted) return;
    throw error;
  }
  try {
    for await (const line of splitLines(body)) {
      // One chunk can hold many lines; none are handed out once the caller has aborted.
      if (signal?.aborted) return;
      yield line;
    }
  } catch (error) {
    // Aborting destroys the body, which surfaces here as an error; for the caller it is a normal end.
    if (signal?.aborted) return;
    throw error;
  } finally {
    body.destroy();
  }
}
