/**
 * Kubernetes-style Status error bodies. Handlers throw a SimError; the server
 * turns it into `{kind: 'Status', status: 'Failure', message, reason, code, details}`.
 */

/** One field-level problem, as in a Kubernetes `details.causes` entry. */
export interface StatusCause {
  field: string;
  message: string;
}

/** An error that becomes a Status response with the given HTTP code and reason. */
export class SimError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SimError';
  }
}

/** The JSON body of a failure Status. */
export function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
    ...(details ? { details } : {}),
  };
}

/** The Kubernetes reason conventionally paired with an HTTP status code. */
export function reasonForCode(code: number): string {
  const reasons: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    409: 'Conflict',
    413: 'RequestEntityTooLarge',
    415: 'UnsupportedMediaType',
    422: 'Invalid',
    429: 'TooManyRequests',
    500: 'InternalError',
    502: 'BadGateway',
    503: 'ServiceUnavailable',
    504: 'Timeout',
  };
  return reasons[code] ?? (code >= 500 ? 'InternalError' : 'Unknown');
}

/** 404 for a named object of a kind (e.g. `Vessel "x" not found`). */
export function notFound(kind: string, name: string, where?: string): SimError {
  const suffix = where ? ` in ${where}` : '';
  return new SimError(404, 'NotFound', `${kind} "${name}" not found${suffix}`, { name, kind });
}

/** 409 AlreadyExists for a create with a taken name. */
export function alreadyExists(kind: string, name: string): SimError {
  return new SimError(409, 'AlreadyExists', `${kind} "${name}" already exists`, { name, kind });
}

/** 422 Invalid naming every offending field. */
export function invalid(kind: string, name: string | undefined, causes: readonly StatusCause[]): SimError {
  const subject = name ? `${kind} "${name}"` : kind;
  const list = causes.map((c) => `${c.field}: ${c.message}`).join('; ');
  return new SimError(422, 'Invalid', `${subject} is invalid: ${list}`, {
    ...(name ? { name } : {}),
    kind,
    causes: causes.map((c) => ({ field: c.field, message: c.message })),
  });
}

/** 400 BadRequest. */
export function badRequest(message: string): SimError {
  return new SimError(400, 'BadRequest', message);
}
