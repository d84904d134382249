/**
 * Which failures of an apply leave its outcome open. An answer is clear only
 * when the hosting API itself refused (a Kubernetes Status body with a 4xx,
 * or our own checks before any write). Anything else after a request was sent
 * may hide a write that happened: a 2xx whose body we could not read, a 5xx,
 * a plain-text 4xx from a gateway, a reset or a timeout. Those are checked by
 * reading the API before the user is told anything.
 */

import { UserError } from '../errors/user-error.js';
import { ApiError, GameFabricError } from '../gamefabric/errors.js';
import type { UnclearAnswer } from './failure.js';

/**
 * - `clear`: the failure itself proves nothing was written.
 * - `answered`: a server answered, unclearly; a read now shows the truth.
 * - `in_flight`: the write may still be travelling (no answer, a gateway
 *   timeout, or a 2xx we could not read): a read that does not show it yet
 *   proves nothing, so the change stays unconfirmed and is read again later.
 */
type Clarity = 'clear' | 'answered' | 'in_flight';

/** How much `err`, thrown by an apply, says about whether the API changed. */
export function clarityOf(err: unknown): Clarity {
  if (err instanceof UserError) return 'clear';
  if (!(err instanceof ApiError)) {
    // The client's domain errors (no such image, vessel not listed, kept changing) are verdicts of reads
    // or of refused patches; anything else (a bug) may have struck after the write.
    return err instanceof GameFabricError ? 'clear' : 'answered';
  }
  const write = err.request.method.toUpperCase() !== 'GET';
  if (err.reason === 'InvalidResponse') return write ? 'in_flight' : 'answered';
  if (err.status === 0) return write ? 'in_flight' : 'answered';
  if (err.status === 502 || err.status === 504) return write ? 'in_flight' : 'answered';
  if (err.status >= 500) return 'answered';
  if (err.status === 429) return 'clear';
  // A 4xx is the API's refusal only when it says so in a Status body; a bare 409 may come from a gateway.
  return hasStatusBody(err) ? 'clear' : 'answered';
}

/** Whether the error's body is a Kubernetes Status object (the API answered, not something in between). */
function hasStatusBody(err: ApiError): boolean {
  if (!err.body) return false;
  try {
    const body = JSON.parse(err.body) as { kind?: unknown };
    return body !== null && typeof body === 'object' && body.kind === 'Status';
  } catch {
    return false;
  }
}

/** How the API answered `err` (thrown by an apply), as data; `errorId` is where an unexpected error was logged. */
export function unclearAnswer(err: unknown, errorId?: string): UnclearAnswer {
  if (!(err instanceof ApiError)) return errorId ? { kind: 'unexpected', errorId } : { kind: 'unexpected' };
  const call = { method: err.request.method, path: err.request.path.split('?')[0] ?? '' };
  if (err.reason === 'InvalidResponse') return { kind: 'unreadable', call };
  if (err.reason === 'Timeout') return { kind: 'timeout', call };
  if (err.status === 0) return { kind: 'connection_broke', call };
  return { kind: 'status', call, status: err.status, explained: hasStatusBody(err) };
}
