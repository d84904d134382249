/**
 * Turns anything an apply can throw into a ChangeFailure (data; the renderer
 * writes the words). UserErrors keep their text; API errors are sorted by
 * status with the fields the API gave; anything else is internal: logged in
 * full under an id, and the user is told the id, never a stack.
 */
import { randomUUID } from 'node:crypto';
import { requiredPermission } from '../api-shapes/permission-schema.js';
import { UserError } from '../errors/user-error.js';
import { ApiError, ConcurrentModificationError } from '../gamefabric/errors.js';
import type { Logger } from '../runtime/logger.js';
import { StoreError } from '../store/errors.js';
import type { ApiDetail, ChangeFailure, FailedCall, NeededPermission } from './failure.js';

/** The failure `err` amounts to; logs internal errors under a fresh id. */
export function describeFailure(
  err: unknown,
  logger: Logger,
  context: Record<string, unknown> = {},
): ChangeFailure {
  if (err instanceof UserError) return { kind: 'user', problem: err.kind, text: err.message };
  if (err instanceof ConcurrentModificationError) {
    return { kind: 'conflict', object: err.kind, name: err.objectName, attempts: err.attempts };
  }
  if (err instanceof ApiError) return describeApiError(err);
  const errorId = randomUUID().slice(0, 8);
  if (err instanceof StoreError) {
    logger.error('store error', { errorId, error: err, ...context });
    return { kind: 'store_unavailable', errorId };
  }
  logger.error('internal error', { errorId, error: err, ...context });
  return { kind: 'internal', errorId };
}

/** API errors by status: each kind is something different the user can do. */
function describeApiError(err: ApiError): ChangeFailure {
  const call: FailedCall = { method: err.request.method, path: err.request.path.split('?')[0] ?? '' };
  const detail: ApiDetail = err.reason
    ? { reason: err.reason, text: err.apiMessage }
    : { text: err.apiMessage };
  const status = err.status;
  if (status === 0) return { kind: 'unreachable', call, detail };
  if (status === 401) return { kind: 'unauthorized', call };
  if (status === 403) {
    const permission = neededPermission(err);
    return permission ? { kind: 'forbidden', call, detail, permission } : { kind: 'forbidden', call, detail };
  }
  if (status === 404) return { kind: 'not_found', call, detail };
  if (status === 400 || status === 409 || status === 422)
    return { kind: 'api_rejected', call, status, detail };
  if (status === 429) return { kind: 'rate_limited', call };
  return { kind: 'api_failed', call, status, detail };
}

function neededPermission(err: ApiError): NeededPermission | undefined {
  const needed = requiredPermission(err.request.method, err.request.path);
  if (!needed) return undefined;
  const { group, resource, verb, scope } = needed;
  return scope ? { group, resource, verb, scope } : { group, resource, verb };
}
