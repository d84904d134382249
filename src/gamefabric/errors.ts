/**
 * Every failure the client reports is a GameFabricError: either an ApiError
 * (one HTTP exchange went wrong) or a domain error from a helper (no such
 * image, vessel not in formation, retries exhausted). Callers branch on the
 * class, never on message text.
 */

/** Base class of every error this client throws. */
export class GameFabricError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request an ApiError belongs to; `path` excludes the base URL and keeps the query. */
export interface ApiRequestInfo {
  method: string;
  path: string;
}

interface ApiErrorInit {
  /** HTTP status, or 0 when no response arrived (network failure, timeout, abort). */
  status: number;
  reason?: string;
  message: string;
  /** The API's own text (or the transport's account), without the "METHOD /path: status" prefix. */
  apiMessage: string;
  request: ApiRequestInfo;
  body?: string;
  cause?: unknown;
  retryAfterMs?: number;
}

/**
 * One failed HTTP exchange. `reason` is the Kubernetes Status reason when the
 * body carried one, or one of the client's own: `InvalidResponse` (a 2xx body
 * that did not match the schema), `Timeout`, `NetworkError`, `Aborted`.
 * Message, body and cause are already redacted. `apiMessage` is the part of
 * the message a user may read (no request line, no internal addresses), kept
 * apart so nobody has to cut it out of `message`.
 */
export class ApiError extends GameFabricError {
  readonly status: number;
  readonly reason: string | undefined;
  readonly apiMessage: string;
  readonly request: ApiRequestInfo;
  readonly body: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.reason = init.reason;
    this.apiMessage = init.apiMessage;
    this.request = init.request;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** True for an ApiError with status 404. */
export function isNotFound(e: unknown): e is ApiError {
  return e instanceof ApiError && e.status === 404;
}

/** True for an ApiError with status 409. */
export function isConflict(e: unknown): e is ApiError {
  return e instanceof ApiError && e.status === 409;
}

/** Seed rule 4 found nothing: the fieldSelector lookup returned no items. */
export class ImageNotFoundError extends GameFabricError {
  constructor(
    readonly image: string,
    readonly tag: string,
    readonly branch: string,
  ) {
    super(`no such image ${image}:${tag} in branch ${branch}`);
  }
}

/** The Formation does not list a Vessel of that name. */
export class VesselNotInFormationError extends GameFabricError {
  constructor(
    readonly formation: string,
    readonly vessel: string,
    readonly environment: string,
  ) {
    super(`vessel ${vessel} is not in formation ${formation} (environment ${environment})`);
  }
}

/** The Formation already lists a Vessel of that name. */
export class DuplicateVesselError extends GameFabricError {
  constructor(
    readonly formation: string,
    readonly vessel: string,
    readonly environment: string,
  ) {
    super(`formation ${formation} (environment ${environment}) already has a vessel named ${vessel}`);
  }
}

/** The Region has no Region Type of that name. */
export class RegionTypeNotFoundError extends GameFabricError {
  constructor(
    readonly region: string,
    readonly typeName: string,
    readonly available: readonly string[],
  ) {
    super(
      `region ${region} has no type ${typeName}` +
        (available.length > 0 ? ` (types: ${available.join(', ')})` : ' (it has no types)'),
    );
  }
}

/** A guarded patch kept failing its `test` because the object kept changing; `cause` is the last ApiError. */
export class ConcurrentModificationError extends GameFabricError {
  constructor(
    readonly kind: string,
    readonly objectName: string,
    readonly attempts: number,
    cause: ApiError,
  ) {
    super(
      `${kind} ${objectName} kept changing while we tried to update it; gave up after ${attempts} attempts`,
      {
        cause,
      },
    );
  }
}
