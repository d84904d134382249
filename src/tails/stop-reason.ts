/**
 * Why a tail stopped, in a shape the final message can state. Stops that come
 * from outside (the Stop button, the thread's release ending) arrive as the
 * abort reason of the tail's signal, so the tail needs no other channel.
 */
import type { ApiError } from '../gamefabric/errors.js';

export type TailStopReason =
  | { kind: 'stopped'; by?: string }
  | { kind: 'release_ended'; release?: string }
  | { kind: 'vessel_deleted' }
  | { kind: 'max_duration'; afterMs: number }
  | { kind: 'api_error'; status: number; message: string }
  | { kind: 'gave_up'; attempts: number; message: string };

/** An abort reason that says who or what stopped a tail. */
export class TailAbort extends Error {
  constructor(readonly stop: Extract<TailStopReason, { kind: 'stopped' | 'release_ended' }>) {
    super(stop.kind === 'stopped' ? `tail stopped${stop.by ? ` by ${stop.by}` : ''}` : 'release ended');
    this.name = 'TailAbort';
  }
}

/** The abort reason for a user pressing Stop (`by`: their id). */
export function stopByUser(by?: string): TailAbort {
  return new TailAbort(by === undefined ? { kind: 'stopped' } : { kind: 'stopped', by });
}

/** The abort reason for the thread's release ending. */
export function releaseEnded(release?: string): TailAbort {
  return new TailAbort(
    release === undefined ? { kind: 'release_ended' } : { kind: 'release_ended', release },
  );
}

/** The stop reason an abort reason stands for; anything but a TailAbort is a plain stop. */
export function stopReasonOf(reason: unknown): TailStopReason {
  return reason instanceof TailAbort ? reason.stop : { kind: 'stopped' };
}

/** Words for a failed log request: status and reason, and the server's own message (never the request line). */
export function describeStreamError(error: ApiError): string {
  const detail = error.apiMessage;
  if (error.status === 0) return `the hosting API could not be reached (${detail})`;
  if (error.status === 401) return "the hosting API did not accept Harbormaster's credentials (401)";
  if (error.status === 403)
    return `the hosting API refused to show these logs (403 ${error.reason ?? 'Forbidden'}: ${detail})`;
  return `the hosting API answered ${error.status}${error.reason ? ` ${error.reason}` : ''}: ${detail}`;
}
