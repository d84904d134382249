/**
 * Turns anything an apply can throw into words for users. UserErrors are shown
 * as written; API errors are translated by status; anything else is internal:
 * logged in full under an id, and the user is told the id, never a stack.
 */
import { randomUUID } from 'node:crypto';
import { UserError } from '../errors/user-error.js';
import { ApiError, ConcurrentModificationError } from '../gamefabric/errors.js';
import { requiredPermission } from '../gamefabric/permission-schema.js';
import { describePermission } from '../gamefabric/permissions.js';
import type { Logger } from '../runtime/logger.js';
import { StoreError } from '../store/errors.js';
import type { ChangeFailure } from './change.js';

/** A user-facing description of `err`; logs internal errors under a fresh id. */
export function describeFailure(
  err: unknown,
  logger: Logger,
  context: Record<string, unknown> = {},
): ChangeFailure {
  if (err instanceof UserError) return { message: err.message, kind: err.kind };
  if (err instanceof ConcurrentModificationError) {
    return {
      message: `The ${err.kind} ${err.objectName} kept changing while we tried to update it (${err.attempts} attempts); nothing was changed. Try again.`,
      kind: 'conflict',
    };
  }
  if (err instanceof ApiError) return describeApiError(err);
  const errorId = randomUUID().slice(0, 8);
  if (err instanceof StoreError) {
    logger.error('store error', { errorId, error: err, ...context });
    return {
      message: `The bot's database is unavailable just now (error id ${errorId}), so this could not be recorded or checked. Try again in a minute; if it persists, tell whoever runs Harbormaster (the log has the details under that id).`,
      kind: 'store_unavailable',
      errorId,
    };
  }
  logger.error('internal error', { errorId, error: err, ...context });
  return {
    message: `Harbormaster hit an internal error (id ${errorId}). The bot's log has the details under that id.`,
    kind: 'internal',
    errorId,
  };
}

/** API errors by status: what the user can do about each. */
function describeApiError(err: ApiError): ChangeFailure {
  const what = `${err.request.method} ${err.request.path.split('?')[0]}`;
  const detail = err.reason ? `${err.reason}: ${stripPrefix(err.message)}` : stripPrefix(err.message);
  switch (true) {
    case err.status === 0:
      return {
        message: `The hosting API is unreachable (${detail}); nothing was changed.`,
        kind: 'unreachable',
        status: 0,
      };
    case err.status === 401:
      return {
        message: `The hosting API did not accept Harbormaster's credentials (${what}); ask an admin to check GAMEFABRIC_TOKEN or the service-account login.`,
        kind: 'api',
        status: 401,
      };
    case err.status === 403: {
      const needed = requiredPermission(err.request.method, err.request.path);
      const ask = needed
        ? `Ask an admin to grant the service account ${describePermission(needed)}.`
        : 'Ask an admin to grant it.';
      return {
        message: `The hosting API refused: the service account lacks a permission (${detail}). ${ask}`,
        kind: 'forbidden',
        status: 403,
      };
    }
    case err.status === 404:
      return { message: `Not found in the hosting API: ${detail}.`, kind: 'not_found', status: 404 };
    case err.status === 409 || err.status === 422 || err.status === 400:
      return { message: `The hosting API rejected the change: ${detail}.`, kind: 'api', status: err.status };
    case err.status === 429:
      return {
        message: 'The hosting API is rate-limiting us; nothing was changed. Try again in a minute.',
        kind: 'api',
        status: 429,
      };
    default:
      return {
        message: `The hosting API failed (${err.status}, ${detail}).`,
        kind: 'api',
        status: err.status,
      };
  }
}

/**
 * ApiError messages read "METHOD /path: 403 Forbidden: text"; users get the
 * text (the reason is added once by the caller), and never the API's
 * internal address (network errors quote the URL).
 */
function stripPrefix(message: string): string {
  const i = message.indexOf(': ');
  const rest = i > 0 && /^[A-Z]+ \//.test(message) ? message.slice(i + 2) : message;
  return rest.replace(/^\d{3} [A-Za-z]+: /, '').replace(/https?:\/\/\S+/g, 'the API');
}
