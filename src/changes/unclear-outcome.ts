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

/** A short account of how the API answered, for messages ("answered 502", "did not answer in time"). */
export function describeAnswer(err: unknown): string {
  if (!(err instanceof ApiError)) return 'the apply stopped on an unexpected error';
  const what = `${err.request.method} ${err.request.path.split('?')[0]}`;
  if (err.reason === 'InvalidResponse') return `the API accepted ${what} but its answer could not be read`;
  if (err.reason === 'Timeout') return `the API did not answer ${what} in time`;
  if (err.status === 0) return `the connection broke during ${what}`;
  return `the API answered ${what} with ${err.status}${hasStatusBody(err) ? '' : ' and no explanation'}`;
}
