/**
 * Follows one Vessel's log for a tail: reads without pause (Slack's pace is
 * the caller's business, via a ring buffer), reconnects a dropped stream with
 * backoff and says so, and ends with the reason it stopped. A stream that
 * ends is not trusted to mean "deleted": the Vessel is looked up first.
 */
import type { GameFabricClient } from '../gamefabric/client.js';
import { ApiError, isNotFound } from '../gamefabric/errors.js';
import { backoffDelayMs } from '../gamefabric/retry.js';
import type { Clock } from '../runtime/clock.js';
import { ReplayFilter, type ReplayStep, type ReplayVerdict } from './replay-filter.js';
import { describeStreamError, stopReasonOf, type TailStopReason } from './stop-reason.js';

/** The part of the GameFabric client a tail uses. */
export type TailLogSource = Pick<GameFabricClient, 'streamVesselLogs' | 'getVessel'>;

/**
 * What happened to the connection: `gap` means lines may be missing from the
 * tail at this point; `resumed` may say what became of lines the API sent
 * again after the reconnect (`replay`).
 */
export type TailEvent =
  | { kind: 'gap'; at: number; attempt: number; retryInMs: number; cause: string }
  | { kind: 'resumed'; at: number; attempt: number; replay?: ReplayVerdict };

export interface TailStreamOptions {
  client: TailLogSource;
  env: string;
  vessel: string;
  container?: string;
  clock: Clock;
  /** Abort to stop; the reason may come from stopByUser or releaseEnded. */
  signal: AbortSignal;
  /** Measured on `clock` from the start. */
  maxDurationMs: number;
  backoff: { initialMs: number; maxMs: number };
  /** Consecutive reconnects without a line in between before giving up (default: no limit). */
  maxReconnects?: number;
  /** Recent lines asked for on the first connect (default 20); reconnects ask for none. */
  initialTailLines?: number;
  /**
   * After a reconnect, how long lines are held (from the first one) while
   * looking for the last lines shown, in case the API ignores tailLines and
   * sends history again (default 2000 ms on `clock`).
   */
  replayWaitMs?: number;
  /** Jitter source for the backoff (default Math.random). */
  random?: () => number;
  /** Called for every line, synchronously: it must be cheap (push into a ring). */
  onLine(line: string): void;
  onEvent?(event: TailEvent): void;
}

/** Marks an abort as the max duration passing (the caller's own abort reasons are kept apart). */
const MAX_DURATION = Symbol('max duration');

/** What the tail has learnt so far: the Vessel existed (so a 404 now means deleted); lines arrived. */
interface Seen {
  existed: boolean;
  gotLines: boolean;
}

/** How one connection ended: worth another try (with why), or the end of the tail. */
type Ending = { retry: true; cause: string } | { retry: false; stop: TailStopReason };

/** Follows the log until stopped; resolves with why it stopped (it never rejects for API trouble). */
export async function runTailStream(options: TailStreamOptions): Promise<TailStopReason> {
  const { clock, signal, maxDurationMs } = options;
  const started = clock.now();
  const local = new AbortController();
  const forward = () => local.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  const deadline = new AbortController();
  if (Number.isFinite(maxDurationMs)) {
    clock.sleep(Math.max(0, maxDurationMs), deadline.signal).then(
      () => local.abort(MAX_DURATION),
      () => undefined, // the tail ended first
    );
  }
  const stopped = (): TailStopReason =>
    local.signal.reason === MAX_DURATION
      ? { kind: 'max_duration', afterMs: clock.now() - started }
      : stopReasonOf(local.signal.reason);
  try {
    return await follow(options, local.signal, stopped);
  } finally {
    deadline.abort();
    signal.removeEventListener('abort', forward);
  }
}

async function follow(
  options: TailStreamOptions,
  signal: AbortSignal,
  stopped: () => TailStopReason,
): Promise<TailStopReason> {
  const { clock, backoff, maxReconnects } = options;
  const random = options.random ?? Math.random;
  const policy = { maxAttempts: 1, baseDelayMs: backoff.initialMs, maxDelayMs: backoff.maxMs };
  const seen: Seen = { existed: false, gotLines: false };
  // Not initialTailLines: a tail taken over asks for 0 at first, but must still show new lines after a reconnect.
  const replay = new ReplayFilter();
  let attempt = 0; // reconnects since the last line arrived
  for (;;) {
    const read = await readOnce(options, signal, attempt, seen, replay);
    if (signal.aborted) return stopped();
    const ending = read.retry ? await vesselCheck(options, signal, seen, read.cause) : read;
    if (signal.aborted) return stopped();
    if (!ending.retry) return ending.stop;
    if (read.gotLine) attempt = 0;
    attempt += 1;
    if (maxReconnects !== undefined && attempt > maxReconnects) {
      return { kind: 'gave_up', attempts: attempt - 1, message: ending.cause };
    }
    const retryInMs = backoffDelayMs(attempt, policy, random);
    options.onEvent?.({ kind: 'gap', at: clock.now(), attempt, retryInMs, cause: ending.cause });
    try {
      await clock.sleep(retryInMs, signal);
    } catch {
      return stopped();
    }
  }
}

/**
 * One connection, read to its end. Until a line has arrived it asks for some
 * recent lines; after that a reconnect asks for none, so no line is shown
 * twice (the lines written during the gap are lost, and the gap marker says
 * so). tailLines is undocumented, so a reconnect also holds what arrives
 * until the last lines shown come again (see ReplayFilter) or the wait ends.
 */
async function readOnce(
  options: TailStreamOptions,
  signal: AbortSignal,
  attempt: number,
  seen: Seen,
  replay: ReplayFilter,
): Promise<Ending & { gotLine: boolean }> {
  const { client, env, vessel, container, clock } = options;
  const tailLines = seen.gotLines ? 0 : (options.initialTailLines ?? 20);
  let gotLine = false;
  let resumed = attempt === 0; // a first connect has nothing to announce
  const pass = (step: ReplayStep) => {
    if (!resumed && (step.verdict || step.lines.length > 0)) {
      resumed = true;
      options.onEvent?.({
        kind: 'resumed',
        at: clock.now(),
        attempt,
        ...(step.verdict ? { replay: step.verdict } : {}),
      });
    }
    for (const line of step.lines) options.onLine(line);
  };
  const decide = () => {
    const step = replay.decide();
    if (step) pass(step);
  };
  replay.begin();
  const wait = new AbortController();
  try {
    for await (const line of client.streamVesselLogs(env, vessel, { container, signal, tailLines })) {
      if (!gotLine) {
        gotLine = true;
        seen.existed = true;
        seen.gotLines = true;
        // The wait starts with the first line, so a slow connect does not eat it before a resend arrives.
        if (replay.holding)
          clock.sleep(options.replayWaitMs ?? 2000, wait.signal).then(decide, () => undefined);
      }
      pass(replay.push(line));
    }
    seen.existed = true; // the server answered and later ended the stream
    return { retry: true, cause: 'the log stream ended', gotLine };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error; // a bug, not a bad connection: let it surface
    if (error.status === 404) return { retry: true, cause: 'the log stream answered 404', gotLine };
    if (isTransient(error.status)) return { retry: true, cause: describeStreamError(error), gotLine };
    return { retry: false, stop: apiErrorStop(error, vessel, env), gotLine };
  } finally {
    // The connection is over: what is still held is decided on now, never lost silently.
    wait.abort();
    if (!signal.aborted) decide();
  }
}

/** After a stream ended: a gone Vessel stops the tail; a present one, or an unreachable API, means reconnect. */
async function vesselCheck(
  options: TailStreamOptions,
  signal: AbortSignal,
  seen: Seen,
  cause: string,
): Promise<Ending> {
  const { client, env, vessel } = options;
  try {
    await abortable(client.getVessel(env, vessel), signal);
    seen.existed = true;
    return { retry: true, cause };
  } catch (error) {
    if (signal.aborted) return { retry: true, cause };
    if (isNotFound(error)) {
      // Gone after we saw it: deleted. Never seen: the user named a Vessel that does not exist.
      if (seen.existed) return { retry: false, stop: { kind: 'vessel_deleted' } };
      return { retry: false, stop: apiErrorStop(error, vessel, env) };
    }
    if (error instanceof ApiError && isTransient(error.status)) return { retry: true, cause };
    if (error instanceof ApiError) return { retry: false, stop: apiErrorStop(error, vessel, env) };
    throw error;
  }
}

/** No answer, rate limiting and server trouble pass; any other refusal would repeat itself forever. */
function isTransient(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

function apiErrorStop(error: ApiError, vessel: string, env: string): TailStopReason {
  const message = isNotFound(error)
    ? `Vessel ${vessel} does not exist in environment ${env}.`
    : describeStreamError(error);
  return { kind: 'api_error', status: error.status, message };
}

/** Waits for `promise` unless `signal` aborts first (a Stop must not wait for a slow lookup). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
